"""How long the web page takes to show each view (the page must still load in
under a second with the shipped tables): `puzzlelab serve` on a records store, headless
Chromium (Debian's /usr/bin/chromium), each view loaded `--repeats` times in a fresh
browser context (no cache), timed from navigation start to the view being drawn (the
page's own `performance.mark('ready:<view>')`), medians printed beside the Solve view
as it loads with its first preview (the page as it was before the dashboards, plus
its preview).

Views: the Solve page (puzzles, catalog, the tour instance's preview), each records
dashboard (its JSON and every plot drawn), and one answer view when `--answer` names a
stored one.

Run: python benchmarks/bench_page_load.py [--db STORE] [--repeats 7] [--answer coins/font5x7:O-C]
(a fresh, empty store when --db is not given; a store with the coin campaign's answers
loaded shows the dashboards at their fullest).
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import quote

from common import write_json

CHROMIUM = "/usr/bin/chromium"
DASHBOARDS = ("matchsticks", "hexagon", "coins", "tiling", "macmahon")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(db: str) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = dict(os.environ, PUZZLELAB_DB=db)
    process = subprocess.Popen([sys.executable, "-m", "puzzlelab.cli", "serve", "--port", str(port), "--workers", "1"],
                               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while True:
        try:
            urllib.request.urlopen(url + "/api/health", timeout=2)
            return process, url
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise SystemExit("the server did not start")
            time.sleep(0.3)


def views(answer: str | None) -> list[tuple[str, str, str]]:
    """(name, hash, the performance mark the page sets once the view is drawn)."""
    out = [("solve", "#solve", "ready:solve")]
    out += [(f"records/{name}", f"#records/{name}", f"ready:records/{name}") for name in DASHBOARDS]
    if answer:
        puzzle, _, instance = answer.partition("/")
        out.append((f"answer/{answer}", f"#answer/{puzzle}/{quote(instance, safe='')}", "ready:answer"))
    return out


def load_once(browser, url: str, fragment: str, mark: str) -> tuple[float, float]:
    """Milliseconds from navigation start to the view drawn (the page's own
    `performance.mark('ready:<view>')`, set once the view's data is drawn), in a fresh
    context (no cache); and the milliseconds the page's main thread was busy by then
    (Chrome's `TaskDuration` metric: its CPU work, which a loaded machine stretches
    less than the wall-clock time)."""
    context = browser.new_context()
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Performance.enable")
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url + "/" + fragment)
    page.wait_for_function(f"() => performance.getEntriesByName('{mark}').length > 0", timeout=60_000)
    millis = page.evaluate(f"performance.getEntriesByName('{mark}')[0].startTime")
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    context.close()
    if errors:
        raise SystemExit(f"{fragment}: page errors {errors}")
    return millis, 1000 * metrics.get("TaskDuration", 0.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", help="records store to serve (default: a fresh one)")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--answer", help="also time the answer view of PUZZLE/INSTANCE (stored in --db)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder:
        process, url = serve(args.db or str(Path(folder) / "records.sqlite"))
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"])
                results = {}
                for name, fragment, mark in views(args.answer):
                    load_once(browser, url, fragment, mark)  # warm the server's caches and imports
                    runs = [load_once(browser, url, fragment, mark) for _ in range(args.repeats)]
                    times, busy = [r[0] for r in runs], [r[1] for r in runs]
                    results[name] = {"median_ms": statistics.median(times), "max_ms": max(times), "runs": len(times),
                                     "main_thread_busy_median_ms": statistics.median(busy)}
                browser.close()
        finally:
            process.terminate()
            process.wait(10)
    base = results["solve"]["median_ms"]
    load = os.getloadavg()[0]
    print(f"load average {load:.1f} on {os.cpu_count()} cores")
    print(f"{'view':<30} {'median ms':>10} {'max ms':>8} {'x solve':>8} {'busy ms':>8}")
    for name, row in results.items():
        print(f"{name:<30} {row['median_ms']:>10.0f} {row['max_ms']:>8.0f} {row['median_ms'] / base:>8.2f}"
              f" {row['main_thread_busy_median_ms']:>8.0f}")
    write_json("page_load", {"db": args.db, "repeats": args.repeats, "load_average": load, "views": results})


if __name__ == "__main__":
    main()
