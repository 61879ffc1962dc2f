#!/usr/bin/env python3
"""Interrupt torture: runs a real pipeline many times and interrupts it at random moments.

The pipeline is scripts/torture/photos-torture.yaml (the photos pipeline plus `exec` programs),
fetching the encrypted photos from a local server that serves each one slowly (about 0.8 s).
One full run gives the reference outputs; then every run, into a fresh output directory, gets
SIGINT or SIGTERM at a random moment in [0, --max-delay] seconds and must:
  - die by the signal after cleaning up (a shell reports 130 or 143), or exit 0 if it finished
    before the signal;
  - end within --latency-limit seconds of the signal;
  - leave no temporary file, and only files byte-identical to the reference run's;
  - leave no process behind: every process taskgraph started carries an environment marker,
    and /proc is searched for it after the exit.
A signal that lands before taskgraph trapped signals (while the dynamic loader and the runtime
start: tens of milliseconds, more on a loaded machine) kills it at once, without cleaning up;
such runs are counted apart, and the other checks still apply.
Then the double-SIGINT case (a second SIGINT 0.1-0.3 s after the first, while programs that
ignore SIGTERM may be running: death by SIGINT at once) and SIGINT during `validate` of a huge
file.

Usage: scripts/torture.py [--binary PATH] [--runs N] [--seed N] [--max-delay SECONDS]
Exit status 0 when every run passed, 1 otherwise. Standard library only.
"""
import argparse
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent / "torture"))
from outcome import Outcome  # noqa: E402
from outputs import output_problems, reference_problems, snapshot  # noqa: E402
from processes import Server, catches, launch, survivors, wait_for_exit  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
PIPELINE = ROOT / "scripts/torture/photos-torture.yaml"
STAMP = 'sleep 2; printf "%s stamped\\n" "$0"'
# Ignored signals stay ignored across exec: the shell and its `sleep` both outlive SIGTERM.
STUBBORN_STAMP = "trap '' TERM; " + STAMP
SIGNALS = {signal.SIGINT: "SIGINT", signal.SIGTERM: "SIGTERM"}


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", help="the taskgraph binary (default: the release build)")
    parser.add_argument("--runs", type=int, default=50, help="single-signal runs (default 50)")
    parser.add_argument("--double-runs", type=int, default=5,
                        help="double-SIGINT runs (default 5)")
    parser.add_argument("--validate-runs", type=int, default=2,
                        help="interrupted validate runs (default 2)")
    parser.add_argument("--validate-operations", type=int, default=100_000,
                        help="operations in the file validated (default 100000)")
    parser.add_argument("--seed", type=int, help="random seed (default: random, printed)")
    parser.add_argument("--max-delay", type=float, default=3.0,
                        help="latest signal, in seconds after the start (default 3)")
    parser.add_argument("--latency-limit", type=float, default=1.0,
                        help="most seconds from signal to exit (default 1)")
    parser.add_argument("--hang-guard", type=float, default=60.0,
                        help="seconds after which a run is killed and failed (default 60)")
    parser.add_argument("--keep", action="store_true", help="keep the work directory")
    return parser.parse_args()


def generate_pipeline(path, count):
    """Writes a valid pipeline of `count` operations, each needing up to three earlier ones."""
    generator = random.Random(count)
    lines = ["version: 1", "name: huge", "operations:"]
    for index in range(count):
        lines.append(f"  op{index}:")
        lines.append(f"    op: exec\n    command: [echo, '{index}']" if index % 2 == 0 else "    op: group")
        needs = sorted({generator.randrange(index) for _ in range(min(index, 3))})
        if needs:
            lines.append("    needs: [" + ", ".join(f"op{n}" for n in needs) + "]")
    path.write_text("\n".join(lines) + "\n")
    return path


def default_binary():
    path = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT,
                          check=True, capture_output=True, text=True).stdout.strip()
    return str(Path(path) / "taskgraph")


class Torture:
    """Runs the scenarios, printing one line per run and keeping every outcome."""

    def __init__(self, options, work, port):
        self.options = options
        self.work = work
        self.port = port
        self.random = random.Random(options.seed)
        self.outcomes = []

    def pipeline_arguments(self, output, stamp=STAMP):
        return ["run", str(PIPELINE), "--no-progress", "--output", str(output),
                "--var", f"source=http://127.0.0.1:{self.port}/slow-file/50", "--var", f"stamp={stamp}"]

    def run(self, name, arguments, schedule, expected_files=None):
        """Starts taskgraph, sends the (seconds, signal) of `schedule` while it runs (seconds
        after the start for the first, after the previous signal for the others) and checks
        what it left: with `expected_files`, the output directory's files
        against them; without (validate), the first signal waits until taskgraph has installed
        its handlers (on a loaded machine it can take longer to start than the delay drawn), and
        being killed without them is a failure."""
        directory = self.work / name
        directory.mkdir()
        marker = f"{os.getpid()}-{name}"
        process, started = launch(self.options.binary, arguments, directory, marker)
        sent, trapped = [], True
        for at, number in schedule:
            pause = (sent[-1] if sent else started) + at - time.monotonic()
            if pause > 0:
                time.sleep(pause)
            if process.poll() is not None:
                break
            if not sent:
                while expected_files is None and not catches(process.pid, number) \
                        and process.poll() is None:
                    time.sleep(0.005)
                if process.poll() is not None:
                    break
                trapped = catches(process.pid, number)
            sent.append(time.monotonic())
            os.kill(process.pid, number)
        status, ended = wait_for_exit(process, self.options.hang_guard)
        outcome = Outcome(name=name, signal=SIGNALS[schedule[0][1]], status=status,
                          sent=[t - started for t in sent],
                          latency=ended - sent[0] if sent and status is not None else None,
                          last_latency=ended - sent[-1] if sent and status is not None else None)
        self.judge(outcome, schedule, trapped, directory, expected_files, marker)
        return outcome

    def judge(self, outcome, schedule, trapped, directory, expected_files, marker):
        number = schedule[0][1]
        label = SIGNALS[number]
        problems = outcome.problems
        if outcome.status is None:
            problems.append(f"still running after {self.options.hang_guard:.0f} s: killed")
        elif not outcome.sent:
            outcome.finished_first = True
            if outcome.status != 0:
                problems.append(f"finished before the signal with exit {outcome.status}")
        elif outcome.status == -number and trapped:
            pass
        elif outcome.status == 0 and expected_files is not None:
            outcome.finished_first = True
        elif outcome.status == -number and expected_files is not None:
            outcome.before_handlers = True
        elif outcome.status == -number:
            problems.append(f"killed by {label} before taskgraph trapped signals")
        elif outcome.status < 0:
            problems.append(f"killed by signal {-outcome.status}, expected {label}")
        else:
            problems.append(f"exit {outcome.status}, expected death by {label}")
        if outcome.latency is not None and not outcome.finished_first \
                and outcome.latency > self.options.latency_limit:
            problems.append(f"exit {outcome.latency * 1000:.0f} ms after the signal")
        output = directory / "out"
        if expected_files is not None:
            problems += output_problems(output, expected_files, complete=outcome.finished_first)
            outcome.files = len(snapshot(output))
        problems += [f"process left: {line}" for line in survivors(marker)]
        if outcome.ok and not self.options.keep:
            shutil.rmtree(directory)
        self.outcomes.append(outcome)
        when = " ".join(f"{t:.3f}" for t in outcome.sent) or f"{schedule[0][0]:.3f} (not sent)"
        print(f"{outcome.name:>14} {label:7} at {when} s: {outcome.describe()}"
              + (f"; {outcome.files} of {len(expected_files)} files" if expected_files else "")
              + ("; ok" if outcome.ok else "; FAILED: " + "; ".join(problems)), flush=True)


def reference(torture):
    """The outputs of a full, uninterrupted run."""
    directory = torture.work / "reference"
    directory.mkdir()
    started = time.monotonic()
    process, _ = launch(torture.options.binary, torture.pipeline_arguments(directory / "out"),
                        directory, f"{os.getpid()}-reference")
    status, ended = wait_for_exit(process, torture.options.hang_guard)
    files = snapshot(directory / "out")
    problems = reference_problems(status, files)
    if problems:
        sys.exit("torture: the reference run failed: " + "; ".join(problems)
                 + f" (logs in {directory})")
    print(f"torture: reference run: {len(files)} files in {ended - started:.2f} s", flush=True)
    return files


def milliseconds(values):
    return f"median {statistics.median(values) * 1000:.0f} ms, max {max(values) * 1000:.0f} ms" \
        if values else "no interrupted run"


def main():
    options = parse_arguments()
    options.seed = options.seed if options.seed is not None else random.randrange(1 << 30)
    options.binary = options.binary or default_binary()
    if not os.access(options.binary, os.X_OK):
        sys.exit(f"torture: no binary at {options.binary}; "
                 "build it: swift build -c release --product taskgraph")
    work = Path(tempfile.mkdtemp(prefix="taskgraph-torture-"))
    print(f"torture: {options.binary}, seed {options.seed}, work in {work}", flush=True)
    with Server() as server:
        torture = Torture(options, work, server.port)
        expected = reference(torture)
        pick = torture.random
        for index in range(1, options.runs + 1):
            name = f"run-{index}"
            schedule = [(pick.uniform(0, options.max_delay), pick.choice(list(SIGNALS)))]
            torture.run(name, torture.pipeline_arguments(work / name / "out"), schedule, expected)
        for index in range(1, options.double_runs + 1):
            name = f"double-{index}"
            at = pick.uniform(0, options.max_delay)
            # As a person presses twice: 0.1-0.3 s apart. Signals sent within a few
            # milliseconds can be merged into one delivery (by the kernel, while the first is
            # pending), which makes the run end as after one SIGINT.
            schedule = [(at, signal.SIGINT), (pick.uniform(0.1, 0.3), signal.SIGINT)]
            arguments = torture.pipeline_arguments(work / name / "out", STUBBORN_STAMP)
            torture.run(name, arguments, schedule, expected)
    validate_time = validate_runs(torture) if options.validate_runs else 0
    return summarize(torture, validate_time, work)


def validate_runs(torture):
    """Validates a huge generated file once in full, then interrupts it; returns the full
    validate's duration."""
    options = torture.options
    huge = generate_pipeline(torture.work / "huge.yaml", options.validate_operations)
    started = time.monotonic()
    full = subprocess.run([options.binary, "validate", str(huge)], capture_output=True)
    validate_time = time.monotonic() - started
    if full.returncode != 0:
        sys.exit(f"torture: validate of {huge} exited {full.returncode}: {full.stderr[-500:]!r}")
    for index in range(1, options.validate_runs + 1):
        at = torture.random.uniform(0.1, 0.8) * validate_time
        torture.run(f"validate-{index}", ["validate", str(huge)], [(at, signal.SIGINT)])
    return validate_time


def summarize(torture, validate_time, work):
    """Prints the summary lines; returns the exit status."""
    options = torture.options
    runs, double, validate = ([o for o in torture.outcomes if o.name.startswith(kind)]
                              for kind in ("run-", "double-", "validate-"))
    interrupted = [o.latency for o in runs if o.latency is not None and not o.finished_first]
    signals = ", ".join(f"{sum(o.signal == label for o in runs)} {label}" for label in SIGNALS.values())
    print(f"torture: {len(runs)} runs, {sum(o.ok for o in runs)} passed, "
          f"{sum(not o.ok for o in runs)} failed ({signals}); "
          f"{sum(o.finished_first for o in runs)} finished before the signal, "
          f"{sum(o.before_handlers for o in runs)} signalled before taskgraph trapped signals")
    print(f"torture: signal to exit over {len(interrupted)} interrupted runs: "
          f"{milliseconds(interrupted)} (limit {options.latency_limit * 1000:.0f} ms)")
    seconds = [o.last_latency for o in double if len(o.sent) == 2]
    if double:
        print(f"torture: double SIGINT: {len(double)} runs, {sum(o.ok for o in double)} passed, "
              f"{len(seconds)} still running at the second SIGINT; second SIGINT to exit: "
              f"{milliseconds(seconds)}")
    if validate:
        print(f"torture: SIGINT during validate of {options.validate_operations} operations "
              f"(full validate {validate_time:.2f} s): {len(validate)} runs, "
              f"{sum(o.ok for o in validate)} passed; signal to exit: "
              f"{milliseconds([o.latency for o in validate if o.latency is not None])}")
    failed = [o for o in torture.outcomes if not o.ok]
    if not failed and not options.keep:
        shutil.rmtree(work)
    print("torture: passed" if not failed else f"torture: FAILED ({len(failed)} runs; logs in {work})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
