"""Two Ray nodes as two hosts on one machine, for the cluster tests.

Each node lives in its own network namespace (`ip netns`), joined to the other by a
veth pair in a private test subnet that exists only inside those two namespaces: no
route leads anywhere else. Each node also gets its own view of the files (the mount
namespace `ip netns exec` makes): a private tmpfs holds its working folder (cwd) and
its TMPDIR, the peer's tmpfs hides the whole test folder, and the head's hides the
driver's folder. So a file one side writes is never there for the other, the same
path names different files on the two nodes, and a task that assumes a shared
filesystem (writes a file the driver reads, reads one the driver wrote, returns a
path) fails. Only the installed package (the source tree on PYTHONPATH) is shared.

The driver (a CLI run) runs in the head's namespace and sees the head's session
folder, as a driver on the head's machine would. Teardown ends every process left in
the two namespaces by its id (`ip netns pids`): `ray stop` would end every Ray
process on the machine, other people's included.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
SRC = TESTS.parent / "src"
SUBNET = "10.213.77"  # a /24 that exists only between the two namespaces made here
PORT = 6379  # the namespaces are private, so the default port never collides
RAY = Path(sys.executable).with_name("ray")


def unusable() -> str | None:
    """Why two namespaced nodes cannot be made here, or None when they can."""
    if sys.platform != "linux":
        return "network namespaces are Linux only"
    if os.geteuid() != 0:
        return "ip netns needs root"
    if shutil.which("ip") is None:
        return "ip (iproute2) is not installed"
    probe = f"pl-probe-{os.getpid()}"
    made = subprocess.run(["ip", "netns", "add", probe], capture_output=True, text=True)
    if made.returncode != 0:
        return f"ip netns add failed: {made.stderr.strip()}"
    subprocess.run(["ip", "netns", "del", probe], capture_output=True)
    return None


def _sh(*args: str, check: bool = True, timeout: float = 60) -> subprocess.CompletedProcess:
    done = subprocess.run(list(args), capture_output=True, text=True, timeout=timeout)
    if check and done.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed ({done.returncode}): {done.stderr.strip()}")
    return done


@dataclass
class Host:
    """One namespace: its name, its address on the veth, its private folders."""

    name: str
    ip: str
    veth: str
    box: Path  # private to this host: work/ (cwd), tmp/ (TMPDIR), ray/ for the peer

    @property
    def work(self) -> Path:
        return self.box / "work"


@dataclass
class TwoHosts:
    root: Path
    head: Host
    peer: Host
    env: dict[str, str] = field(default_factory=dict)

    @property
    def address(self) -> str:
        return f"{self.head.ip}:{PORT}"

    @property
    def driver(self) -> Path:
        """The driver's folder: its cwd, records store, checkpoints, outputs."""
        return self.root / "driver"

    def driver_env(self, **extra: str) -> dict[str, str]:
        env = dict(self.env, RAY_ADDRESS=self.address, PUZZLELAB_DB=str(self.driver / "records.sqlite"), TMPDIR=str(self.driver / "tmp"),
                   HOME=str(self.driver / "home"))
        env.update(extra)
        return env

    def run(self, args: list[str], timeout: float = 300, **extra: str) -> subprocess.CompletedProcess:
        """`args` as the driver: in the head's namespace, from the driver's folder."""
        command = ["ip", "netns", "exec", self.head.name, "env", *[f"{k}={v}" for k, v in self.driver_env(**extra).items()], *args]
        return subprocess.run(command, cwd=self.driver, capture_output=True, text=True, timeout=timeout, env={"PATH": self.env["PATH"]})

    def cli(self, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
        return self.run([sys.executable, "-m", "puzzlelab.cli", *args], timeout=timeout)

    def python(self, code: str, timeout: float = 120) -> subprocess.CompletedProcess:
        return self.run([sys.executable, "-c", code], timeout=timeout)


def _node_script(host: Host, hidden: list[Path], start: list[str], env: dict[str, str]) -> str:
    """Shell run by `ip netns exec` for one node: its private mounts, then `ray start`
    from its own folder. The mounts live as long as the node's processes do."""
    lines = ["set -e", "ip link set lo up"]
    for path in hidden:
        lines.append(f"mount -t tmpfs -o size=64m,mode=0755 pl-hidden {shlex.quote(str(path))}")
    box = shlex.quote(str(host.box))
    lines += [
        f"mkdir -p {box}",
        f"mount -t tmpfs -o size=512m,mode=0755 pl-{host.name} {box}",
        f"mkdir -p {box}/work {box}/tmp {box}/ray {box}/home",
        f"cd {box}/work",
    ]
    exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
    lines.append(f"exec env {exports} TMPDIR={box}/tmp HOME={box}/home {shlex.quote(str(RAY))} start {' '.join(shlex.quote(a) for a in start)}")
    return "\n".join(lines)


def _ray_start(host: Host, hidden: list[Path], start: list[str], env: dict[str, str], attempts: int = 3) -> str:
    """`ray start` in the host's namespace, tried again when it times out (the raylet
    gives its dashboard agent a fixed 15 s, which a loaded 2-core machine can miss);
    a failed try's processes are ended before the next."""
    failure = ""
    for _ in range(attempts):
        script = _node_script(host, hidden, start, env)
        done = subprocess.run(["ip", "netns", "exec", host.name, "sh", "-c", script], capture_output=True, text=True, timeout=300,
                              env={"PATH": env["PATH"]})
        if done.returncode == 0:
            return done.stdout
        failure = done.stdout[-2000:] + done.stderr[-2000:]
        end_processes(host.name)
    raise RuntimeError(f"ray start on {host.name} failed {attempts} times:\n{failure}")


def namespace_pids(name: str) -> list[int]:
    done = subprocess.run(["ip", "netns", "pids", name], capture_output=True, text=True)
    return [int(p) for p in done.stdout.split() if p.strip().isdigit()]


def end_processes(*names: str, patience: float = 5.0) -> None:
    """Every process in the namespaces `names`: SIGTERM, then SIGKILL to those left
    after `patience` seconds (a test cluster keeps nothing worth a slow goodbye)."""
    for sig, wait in ((signal.SIGTERM, patience), (signal.SIGKILL, 10.0)):
        for pid in [p for name in names for p in namespace_pids(name)]:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + wait
        while any(namespace_pids(name) for name in names) and time.monotonic() < deadline:
            time.sleep(0.2)
        if not any(namespace_pids(name) for name in names):
            return


def base_env() -> dict[str, str]:
    """What every process of the test cluster gets: the package and the test tasks on
    PYTHONPATH, no usage reports, no auth token (a token left in a real ~/.ray would
    be demanded of a driver that lacks it)."""
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "LANG": "C.UTF-8",
        "PYTHONPATH": os.pathsep.join([str(SRC), str(TESTS / "cluster"), str(TESTS)]),
        "PUZZLELAB_PLUGINS": "",
        "RAY_USAGE_STATS_ENABLED": "0",
        "RAY_AUTH_MODE": "disabled",
    }


def clear_stale() -> None:
    """Namespaces and folders that a killed earlier run left (their run's process id
    is gone): their processes ended, the namespaces and folders deleted."""
    listed = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout.split()
    for name in listed:
        match = re.fullmatch(r"pl-(?:head|peer)-(\d+)", name)
        if match and not _alive(int(match.group(1))):
            end_processes(name)
            subprocess.run(["ip", "netns", "del", name], capture_output=True)
    for folder in Path(tempfile.gettempdir()).glob("pl-hosts-*-*"):
        match = re.fullmatch(r"pl-hosts-(\d+)-.*", folder.name)
        if match and not _alive(int(match.group(1))):
            shutil.rmtree(folder, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return True


def start(env: dict[str, str]) -> TwoHosts:
    """Make the namespaces, the veth pair and the folders; start the head, then the peer
    (one CPU each, a small object store); wait until the cluster holds both."""
    tag = str(os.getpid())
    root = Path(tempfile.mkdtemp(prefix=f"pl-hosts-{tag}-"))
    head = Host(f"pl-head-{tag}", f"{SUBNET}.1", f"plh{tag}", root / "head")
    peer = Host(f"pl-peer-{tag}", f"{SUBNET}.2", f"plp{tag}", root / "peer")
    hosts = TwoHosts(root, head, peer, env=dict(env))
    try:
        for host in (head, peer):
            _sh("ip", "netns", "add", host.name)
        _sh("ip", "link", "add", head.veth, "type", "veth", "peer", "name", peer.veth)
        for host in (head, peer):
            _sh("ip", "link", "set", host.veth, "netns", host.name)
            _sh("ip", "-n", host.name, "addr", "add", f"{host.ip}/24", "dev", host.veth)
            _sh("ip", "-n", host.name, "link", "set", host.veth, "up")
        for path in (hosts.driver / "tmp", hosts.driver / "home", head.box, root / "head-ray"):
            path.mkdir(parents=True)
        common = ["--num-cpus", "1", "--object-store-memory", str(200 * 2**20), "--disable-usage-stats"]
        # The head's session folder stays visible to the driver (its sockets live there).
        _ray_start(head, [hosts.driver], ["--head", "--port", str(PORT), "--node-ip-address", head.ip, "--include-dashboard=false",
                                          "--temp-dir", str(root / "head-ray"), *common], env)
        # The peer sees none of the test folder: the driver's, the head's and their files.
        _ray_start(peer, [root], ["--address", hosts.address, "--node-ip-address", peer.ip, "--temp-dir", str(peer.box / "ray"), *common], env)
        _wait_for_nodes(hosts)
    except BaseException:
        stop(hosts)
        raise
    return hosts


def _wait_for_nodes(hosts: TwoHosts, seconds: float = 120) -> None:
    code = (
        "import ray, time\n"
        "ray.init(log_to_driver=False, configure_logging=False)\n"
        f"deadline = time.monotonic() + {seconds}\n"
        "while len([n for n in ray.nodes() if n['Alive']]) < 2 and time.monotonic() < deadline:\n"
        "    time.sleep(1)\n"
        "print(len([n for n in ray.nodes() if n['Alive']]))\n"
    )
    done = hosts.python(code, timeout=seconds + 60)
    if done.stdout.strip().splitlines()[-1:] != ["2"]:
        raise RuntimeError(f"the two-host cluster did not come up: {done.stdout[-1000:]} {done.stderr[-2000:]}")


def stop(hosts: TwoHosts) -> None:
    """End every process in both namespaces, delete them (the veth pair goes with them)
    and the test folder. Safe to call on a half-made cluster."""
    end_processes(hosts.head.name, hosts.peer.name)
    for host in (hosts.head, hosts.peer):
        subprocess.run(["ip", "netns", "del", host.name], capture_output=True)
    subprocess.run(["ip", "link", "del", hosts.head.veth], capture_output=True)  # only if it never moved
    shutil.rmtree(hosts.root, ignore_errors=True)
