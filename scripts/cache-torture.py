#!/usr/bin/env python3
"""Cache torture: `kill -9` at random moments must never lead to a false cache hit.

Runs a copy of pipelines/photos.yaml against one store and one output directory shared by all
runs. Each round picks a variant of the pipeline (a random `blur_radius` and `intensity`, mostly
new ones, so the round has work to do and results to record), starts taskgraph, kills it
with SIGKILL at a random moment (no clean-up can run: half-written temporary files, records
without blobs, blobs without records), then runs the same variant to the end. That run must
succeed and leave output files byte-identical to those of a run of the variant with a store of
its own. A false hit (a record trusted over a damaged or missing blob, a stale output left in
place) shows as a difference.

Usage: scripts/cache-torture.py [--binary PATH] [--rounds N] [--seed N]
Exit status 0 when every round passed, 1 otherwise. Standard library only.
"""
import argparse
import filecmp
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def arguments():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=str(ROOT / ".build/release/taskgraph"))
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    return parser.parse_args()


def write_variant(work, variant):
    """Writes the pipeline with the variant's parameters to work/photos.yaml."""
    blur, intensity = variant
    text = (ROOT / "pipelines/photos.yaml").read_text()
    text = text.replace("blur_radius: 6", f"blur_radius: {blur}").replace("intensity: 0.8", f"intensity: {intensity}")
    (work / "photos.yaml").write_text(text)


def run(binary, work, output, cache, kill_after=None):
    """Runs the pipeline in `work`; with `kill_after`, SIGKILLs it after that many seconds.
    Returns (exit status, seconds, stderr)."""
    environment = dict(os.environ, NO_COLOR="1", TASKGRAPH_CACHE_DIR=str(cache))
    started = time.monotonic()
    process = subprocess.Popen([binary, "run", "photos.yaml", "--output", str(output), "--no-progress"],
                               cwd=work, env=environment, stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    if kill_after is not None:
        try:
            process.wait(timeout=kill_after)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
    _, stderr = process.communicate(timeout=600)
    return process.returncode, time.monotonic() - started, stderr.decode(errors="replace")


def files(directory):
    """Relative paths of every file under `directory`, except temporary files a killed run
    left (`.NAME.tmp-XXXXXX`: never taken for an output, and replaced by the next write)."""
    return sorted(str(path.relative_to(directory)) for path in directory.rglob("*")
                  if path.is_file() and ".tmp-" not in path.name)


def differences(output, reference):
    """What differs between the output directory and the reference one."""
    problems = []
    if files(output) != files(reference):
        problems.append(f"files {files(output)} != reference {files(reference)}")
    for name in files(reference):
        if (output / name).exists() and not filecmp.cmp(output / name, reference / name, shallow=False):
            problems.append(f"{name} differs from the reference")
    return problems


def main():
    options = arguments()
    options.binary = os.path.abspath(options.binary)
    rng = random.Random(options.seed)
    work = Path(tempfile.mkdtemp(prefix="taskgraph-cache-torture-"))
    shutil.copytree(ROOT / "pipelines/photos", work / "photos")
    references, durations, failures, killed = {}, {}, 0, 0
    print(f"cache-torture: seed {options.seed}, {options.rounds} rounds, in {work}")

    def reference(variant):
        """The outputs of a run of `variant` with a store of its own (made on first use)."""
        if variant not in references:
            write_variant(work, variant)
            directory = work / f"reference-{variant[0]}-{variant[1]}"
            status, seconds, stderr = run(options.binary, work, directory, work / f"cache-{len(references)}")
            if status != 0:
                raise SystemExit(f"cache-torture: reference run of {variant} failed ({status}):\n{stderr}")
            references[variant], durations[variant] = directory, seconds
        return references[variant]

    shared_cache, output = work / "cache", work / "out"
    for round_number in range(1, options.rounds + 1):
        variant = (rng.choice([4, 6, 8]), rng.choice([0.5, 0.6, 0.7, 0.8, 0.9]))
        expected = reference(variant)
        write_variant(work, variant)
        delay = rng.uniform(0, 0.7 * durations[variant])
        killed_status, _, _ = run(options.binary, work, output, shared_cache, kill_after=delay)
        status, _, stderr = run(options.binary, work, output, shared_cache)
        problems = [] if status == 0 else [f"exit status {status}: {stderr.strip()}"]
        problems += differences(output, expected)
        verdict = "ok" if not problems else "FAILED"
        how = "killed" if killed_status == -signal.SIGKILL else f"finished ({killed_status})"
        killed += killed_status == -signal.SIGKILL
        print(f"round {round_number}: variant {variant}, SIGKILL after {delay:.3f}s: {how}; then: {verdict}")
        for problem in problems:
            print(f"    {problem}")
        failures += bool(problems)
    print(f"cache-torture: {killed} of {options.rounds} runs killed mid-run")
    print(f"cache-torture: {options.rounds} rounds, {options.rounds - failures} passed, {failures} failed")
    if failures == 0:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
