"""Starting taskgraph and the slow server, waiting for exits, finding leftover processes."""
import os
import select
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
SERVER = ROOT / "Tests/TaskGraphNetworkTests/Fixtures/test_server.py"
PHOTOS = ROOT / "pipelines/photos"
# Set in taskgraph's environment, so inherited by every process it starts.
MARKER = "TASKGRAPH_TORTURE"


class Server:
    """The download tests' HTTP server, serving the encrypted photos slowly (/slow-file)."""

    def __enter__(self):
        self.process = subprocess.Popen(
            [sys.executable, str(SERVER), "--files", str(PHOTOS), "--lifetime", "86400"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.port = int(self.process.stdout.readline())
        return self

    def __exit__(self, *exception):
        self.process.stdin.close()  # the server exits when its stdin closes
        self.process.wait(10)


def launch(binary, arguments, directory: Path, marker):
    """Starts `binary arguments…` with output in `directory`/stdout and stderr and the
    marker in its environment; returns the process and its start time (monotonic)."""
    environment = dict(os.environ, NO_COLOR="1")
    environment[MARKER] = marker
    # A store of the run's own (unless the caller shares one): runs must do the work they are
    # interrupted in, not reuse an earlier run's results.
    environment.setdefault("TASKGRAPH_CACHE_DIR", str(directory / "cache"))
    with open(directory / "stdout", "wb") as stdout, open(directory / "stderr", "wb") as stderr:
        started = time.monotonic()
        process = subprocess.Popen([binary, *arguments], cwd=ROOT, env=environment,
                                   stdin=subprocess.DEVNULL, stdout=stdout, stderr=stderr)
    return process, started


def wait_for_exit(process, timeout):
    """Waits for the exit, timed precisely (a pidfd, where Python's own wait polls);
    returns the return code and the moment of the exit, or None and now after killing a
    process still running after `timeout` seconds."""
    try:
        descriptor = os.pidfd_open(process.pid)
    except (AttributeError, OSError):
        descriptor = None
    deadline = time.monotonic() + timeout
    while process.poll() is None:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            process.kill()
            process.wait()
            return None, time.monotonic()
        if descriptor is not None:
            select.select([descriptor], [], [], remaining)
        else:
            time.sleep(0.001)
    ended = time.monotonic()
    if descriptor is not None:
        os.close(descriptor)
    return process.returncode, ended


def catches(pid, number):
    """Whether process `pid` catches or ignores signal `number` (its handlers are installed)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return True
    masks = {line.split(":")[0]: int(line.split()[1], 16) for line in status.splitlines()
             if line.startswith(("SigCgt:", "SigIgn:"))}
    return bool((masks.get("SigCgt", 0) | masks.get("SigIgn", 0)) & (1 << (number - 1)))


def survivors(marker, grace=0.5):
    """The processes (pid and command line) still carrying `marker` `grace` seconds after the
    exit: SIGKILL sent just before taskgraph exited takes a moment to land."""
    deadline = time.monotonic() + grace
    while True:
        found = marked(marker)
        if not found or time.monotonic() >= deadline:
            return found
        time.sleep(0.02)


def marked(marker):
    """Live processes whose environment holds MARKER=marker (zombies have no environment)."""
    needle = f"\0{MARKER}={marker}\0".encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            environment = Path(f"/proc/{entry}/environ").read_bytes()
            command = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue
        if needle in b"\0" + environment + b"\0":
            words = command.replace(b"\0", b" ").decode(errors="replace").strip()
            found.append(f"{entry} {words}")
    return found
