"""The same batch on the local worker processes and on Ray, on this machine: the
overhead of the Ray backend as a ratio of wall times.

The batch is `--tasks` calibration tasks of `--seconds` of busy CPU each
(`parallel.spin`), so the ideal time is tasks x seconds / CPUs on either backend and
the ratio shows the dispatch cost alone. With `--address` it runs on an existing
cluster (`ray start --head` ...); without, Ray starts a one-machine cluster with
`--cpus` CPUs, the same count the local backend gets as workers.

Run: python benchmarks/bench_backends.py [--tasks 32] [--seconds 0.25] [--cpus 2] [--address HOST:PORT]
"""

from __future__ import annotations

import argparse
import statistics
import time

from common import write_json

from puzzlelab.core import parallel


def timed(backend: str, args, repeats: int) -> tuple[float, list]:
    times, values = [], None
    for _ in range(repeats):
        started = time.perf_counter()
        outcomes = parallel.map(
            parallel.spin,
            [(args.seconds, i) for i in range(args.tasks)],
            workers=args.cpus,
            backend=backend,
            address=args.address,
        )
        times.append(time.perf_counter() - started)
        assert all(o.ok for o in outcomes), [o.error for o in outcomes if not o.ok]
        values = [o.value for o in outcomes]
    return statistics.median(times), values


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tasks", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=0.25)
    parser.add_argument("--cpus", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--address", default=None)
    args = parser.parse_args()

    import ray

    if args.address is None:
        ray.init(num_cpus=args.cpus, include_dashboard=False, log_to_driver=False, configure_logging=False)
    parallel.map(parallel.spin, [(0.01, i) for i in range(args.cpus * 2)], backend="ray", address=args.address)  # warm the workers
    local_s, local_values = timed("local", args, args.repeats)
    ray_s, ray_values = timed("ray", args, args.repeats)
    assert local_values == ray_values == list(range(args.tasks))
    ideal = args.tasks * args.seconds / args.cpus
    print(f"{args.tasks} tasks x {args.seconds:g} s on {args.cpus} CPUs (ideal {ideal:.2f} s): "
          f"local {local_s:.2f} s, ray {ray_s:.2f} s, ratio ray/local {ray_s / local_s:.3f}; "
          f"dispatch cost per task: local {(local_s - ideal) / args.tasks * 1000:.1f} ms, ray {(ray_s - ideal) / args.tasks * 1000:.1f} ms")
    write_json("backends", {"benchmark": "backends", "tasks": args.tasks, "seconds": args.seconds, "cpus": args.cpus,
                            "local_s": local_s, "ray_s": ray_s, "ratio": ray_s / local_s})


if __name__ == "__main__":
    main()
