"""Checks of what a run left in its output directory against a full run's files."""
import re
from pathlib import Path

# FileIO.writeAtomically's temporary files: ".NAME.tmp-XXXXXX" beside the destination.
TEMPORARY_NAME = re.compile(r"^\..+\.tmp-[A-Za-z0-9]{6}$")


def snapshot(directory: Path):
    """Every file under `directory`, by path relative to it, with its bytes."""
    if not directory.exists():
        return {}
    return {path.relative_to(directory).as_posix(): path.read_bytes()
            for path in sorted(directory.rglob("*")) if not path.is_dir()}


def reference_problems(status, files):
    """What is wrong with a full run that should have succeeded and written complete files."""
    problems = [] if status == 0 else [f"exit {status}"]
    if not files:
        problems.append("no output files")
    for name, data in files.items():
        if TEMPORARY_NAME.match(Path(name).name):
            problems.append(f"temporary file left: {name}")
            continue
        complete_jpeg = data.startswith(b"\xff\xd8") and data.endswith(b"\xff\xd9")
        if name.endswith(".jpg") and not complete_jpeg:
            problems.append(f"{name} is not a complete JPEG")
        elif not data:
            problems.append(f"{name} is empty")
    return problems


def output_problems(directory: Path, reference, complete):
    """Problems with the files in `directory`: temporary files, files the full run does not
    write, files that differ from the full run's (partial ones), and with `complete` (the run
    finished) files missing."""
    problems = []
    found = snapshot(directory)
    for name, data in found.items():
        if TEMPORARY_NAME.match(Path(name).name):
            problems.append(f"temporary file left: {name} ({len(data)} bytes)")
        elif name not in reference:
            problems.append(f"unexpected file: {name}")
        elif data != reference[name]:
            problems.append(f"{name} differs from the full run's "
                            f"({len(data)} of {len(reference[name])} bytes)")
    if complete:
        problems += [f"missing: {name}" for name in sorted(set(reference) - set(found))]
    return problems
