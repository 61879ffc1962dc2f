#!/usr/bin/env python3
"""Cache differential: an incremental run must equal a clean one, and run exactly what changed.

Generates a random pipeline (issue #28, "Trust the cache"): `exec` steps that read sources,
globs and each other's outputs (declared `inputs:`/`outputs:`, file edges inferred from them,
no `needs:`), a `load` of an exec's output and an exec that reads a `save`'s file, side-effect
execs (neither inputs nor outputs: they run every time), a `cache: true` exec, image chains
(`load` → sepia/grayscale/blur → `save`), `save`s of exec results and a `group`. A third of the
seeds have no side-effect exec and no pattern, so that plain runs can take the up-to-date fast
path. Then applies random edits, one to three per step, to one working copy and one store
shared by all steps, and runs taskgraph after each: edit a source (also in place, same size,
modification time put back), change a parameter, touch a file without changing it, delete or
hand-edit an output (or a whole output directory), replace or shadow a program on PATH, add,
rename or remove a file a glob matches, edit the file a side-effect exec reads; some steps
`kill -9` a run mid-way (then run again) or run a second working copy at the same time on the
same store; some runs are plain (no `--events`: they may take the fast path).

After every step:
- the working copy (sources, exec outputs, the output directory) must be byte-identical to a
  clean run's: the same sources in a fresh directory, a fresh store, `--no-cache`;
- every side-effect exec must have run exactly once (each appends its id to a log outside the
  tree), and the execs' tools must have run for exactly the execs the events say started;
- the operations that ran (`started` in the `--events` stream; for a plain run, the tools' log)
  must be exactly those the model expects: side-effect execs, operations whose key was never
  recorded in the store (the model computes keys from the contents each operation reads and
  the results of what it needs, with early cut-off: a rerun whose stdout and outputs are
  byte-identical changes no key downstream), and groups that need an operation that ran.
  After a `kill -9`, operations the model did not expect to run are reported as notes, not
  failures; with two runs at once, a `load` or image filter (and a group after it) the other
  copy recorded first may be reused.

Every exec's stdout and outputs are a deterministic function of what it reads (its tools are
shell scripts in the working copy's bin/, found on PATH), so the model knows them exactly.

Usage: scripts/cache-differential.py [--binary PATH] [--steps N] [--seed N] [--keep]
                                     [--settle SECONDS] [--explicit-needs]
Prints `cache-differential: N steps, P passed, F failed`; exit status 1 on any failure (the
work directory is then kept). Standard library only.
"""
import argparse
import hashlib
import json
import os
import random
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from fnmatch import fnmatchcase
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODES = {  # a tool's transformation of the concatenation of its inputs: shell and model
    "cat": "cat",
    "lines": "wc -l",
    "head": "head -n 2",
    "tail": "tail -n 1",
    "sort": "sort -u",
}
WORDS = "alder birch cedar dogwood elm fir ginkgo hazel ilex juniper kapok larch maple".split()


def arguments():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=str(ROOT / ".build/debug/taskgraph"))
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--keep", action="store_true", help="keep the work directory")
    parser.add_argument("--settle", type=float, default=0.0,
                        help="seconds to wait before a plain run, so that files are old enough for the fast path")
    parser.add_argument("--explicit-needs", action="store_true",
                        help="write the file edges as `needs:` entries too (for a binary that does not infer them)")
    return parser.parse_args()


def digest(*parts):
    """A model key or result: the SHA-256 of a canonical rendering of `parts`."""
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:16]


def png(width, height, pixels):
    """A PNG (8-bit RGB) of `pixels`, a list of rows of (r, g, b)."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    raw = b"".join(b"\0" + bytes(v for pixel in row for v in pixel) for row in pixels)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


def random_image(rng):
    size = 8
    return png(size, size, [[tuple(rng.randrange(256) for _ in range(3)) for _ in range(size)] for _ in range(size)])


def random_text(rng, lines=None):
    return "".join(rng.choice(WORDS) + "\n" for _ in range(lines or rng.randint(1, 4))).encode()


def tool_script(name, mode, revision):
    return (f"#!/bin/sh\n# {name} revision {revision}\n# mode: {mode}\n"
            'echo "$TG_OP" >> "$RAN_LOG"\n'
            'tag="$1"; out="$2"; shift 2; mkdir -p "${out%/*}"\n'
            'for p in "$@"; do for f in $p; do if [ -f "$f" ]; then cat "$f"; fi; done; done'
            f' | {MODES[mode]} > "$out"\n'
            "printf '%s\\n' \"$tag\"\n").encode()


def tool_mode(script):
    return script.split(b"# mode: ")[1].split(b"\n")[0].decode()


def transform(mode, content):
    """What a tool in `mode` writes for the concatenation `content` (lines ending in \\n)."""
    lines = content.split(b"\n")[:-1] if content else []
    if mode == "cat":
        return content
    if mode == "lines":
        return b"%d\n" % len(lines)
    if mode == "head":
        return b"".join(line + b"\n" for line in lines[:2])
    if mode == "tail":
        return b"".join(line + b"\n" for line in lines[-1:])
    return b"".join(line + b"\n" for line in sorted(set(lines)))


def is_pattern(path):
    return any(c in path for c in "*?[")


def expand(pattern, files):
    """The files among `files` a shell glob `pattern` matches (one directory level, no dotfiles),
    sorted as the C locale sorts them."""
    directory, _, name = pattern.rpartition("/")
    return sorted(p for p in files if p.rpartition("/")[0] == directory
                  and not p.rpartition("/")[2].startswith(".") and fnmatchcase(p.rpartition("/")[2], name))


class Op:
    def __init__(self, id, kind, **fields):
        self.id, self.kind, self.needs = id, kind, fields.pop("needs", [])
        self.__dict__.update(fields)


class Pipeline:
    """The operations (fixed for a seed) and what each reads and writes."""

    def __init__(self, rng, explicit_needs=False):
        self.ops, self.sources, self.explicit_needs = [], {}, explicit_needs
        ops = self.ops
        for n in range(1, rng.randint(3, 4) + 1):
            self.sources[f"src/s{n}.txt"] = random_text(rng)
        # A third of the seeds have neither side-effect execs nor `inputs:` patterns, so that
        # a plain run may take the up-to-date fast path (README, "Nothing changed").
        self.fast = rng.random() < 0.3
        self.use_glob = not self.fast and rng.random() < 0.85
        if self.use_glob:
            for n in range(1, rng.randint(2, 3) + 1):
                self.sources[f"data/d{n}.dat"] = random_text(rng)
        self.sources["state/u1.txt"] = random_text(rng, 1)
        self.tools = [f"tool-{n}" for n in range(1, 4)]
        for tool in self.tools:
            self.sources[f"bin/{tool}"] = tool_script(tool, rng.choice(list(MODES)), 1)
        self.params = {}
        # Side-effect execs: neither inputs nor outputs; each logs its run outside the tree.
        if not self.fast:
            ops.append(Op("side1", "side"))
            self.params["side1.tag"] = "s0"
        ops.append(Op("pure", "pure"))
        self.params["pure.tag"] = "p0"
        # File execs, each reading sources, the glob and earlier execs' outputs (file edges);
        # some declare only `inputs:` (their result is their stdout), some only `outputs:`.
        execs, writers = [], []
        for n in range(1, rng.randint(4, 6) + 1):
            id = f"e{n}"
            variant = "both" if n == 1 else rng.choices(["both", "inputs only", "outputs only"], [7, 1.5, 1.5])[0]
            inputs = rng.sample(sorted(p for p in self.sources if p.startswith("src/")), rng.randint(1, 2))
            if self.use_glob and rng.random() < 0.5:
                inputs.append("data/*.dat")
            for earlier in writers:
                if rng.random() < 0.4:
                    inputs.append(f"gen/{earlier}.out" if self.fast or rng.random() < 0.7 else f"gen/{earlier}.o*")
            rng.shuffle(inputs)
            needs = ["side1"] if not self.fast and rng.random() < 0.25 else []
            ops.append(Op(id, "exec", tool=rng.choice(self.tools), inputs=[] if variant == "outputs only" else inputs,
                          output=None if variant == "inputs only" else f"gen/{id}.out", needs=needs))
            self.params[f"{id}.tag"] = "t0"
            execs.append(id)
            if variant != "inputs only":
                writers.append(id)
        for id in rng.sample(execs, 2):
            ops.append(Op(f"keep-{id}", "save", path=f"{id}.txt", needs=[id]))
        if not self.fast:
            ops.append(Op("keep-side1", "save", path="side1.txt", needs=["side1"]))
        ops.append(Op("keep-pure", "save", path="pure.txt", needs=["pure"]))
        # A load of an exec's output (a file edge from `load`'s path), saved; an exec reading
        # that saved file (a file edge from a `save`'s path).
        copied = rng.choice(writers)
        ops.append(Op("read-gen", "load", path=f"gen/{copied}.out"))
        ops.append(Op("keep-read", "save", path=f"copy-{copied}.txt", needs=["read-gen"]))
        ops.append(Op("x1", "exec", tool=rng.choice(self.tools), inputs=[f"out/copy-{copied}.txt"],
                      output="gen/x1.out", needs=[]))
        self.params["x1.tag"] = "t0"
        # Image chains.
        for n in range(1, rng.randint(1, 2) + 1):
            self.sources[f"img/p{n}.png"] = random_image(rng)
            previous = f"img{n}"
            ops.append(Op(previous, "load", path=f"img/p{n}.png"))
            for kind in rng.sample(["sepia", "grayscale", "blur"], rng.randint(1, 2)):
                id = f"{kind}{n}"
                ops.append(Op(id, "filter", type=kind, needs=[previous]))
                if kind == "sepia":
                    self.params[f"{id}.intensity"] = 0.8
                elif kind == "blur":
                    self.params[f"{id}.blur_radius"] = 1
                previous = id
            ops.append(Op(f"keep-img{n}", "save", path=f"p{n}.png", needs=[previous]))
        ops.append(Op("all", "group", needs=rng.sample([op.id for op in ops if op.kind != "save"], 3)))
        self.byid = {op.id: op for op in ops}
        self.infer_edges()

    def writes(self, op):
        if op.kind == "exec":
            return [op.output] if op.output else []
        if op.kind == "save":
            return [f"out/{op.path}"]
        return []

    def infer_edges(self):
        """Rule 2: a reader of a file another operation writes needs it."""
        writers = {path: op.id for op in self.ops for path in self.writes(op)}
        for op in self.ops:
            reads = op.inputs if op.kind == "exec" else [op.path] if op.kind == "load" else []
            op.inferred = []
            for read in reads:
                for path in sorted(writers):
                    matched = fnmatchcase(path, read) if is_pattern(read) else path == read
                    if matched and writers[path] not in op.needs + op.inferred:
                        op.inferred.append(writers[path])
        order, seen = [], set()

        def visit(op):
            if op.id in seen:
                return
            seen.add(op.id)
            for need in op.needs + op.inferred:
                visit(self.byid[need])
            order.append(op)
        for op in self.ops:
            visit(op)
        self.order = order

    def yaml(self, params):
        """The pipeline file for `params`."""
        lines = ["version: 1", "name: differential", "operations:"]
        for op in self.ops:
            named = op.needs + (op.inferred if self.explicit_needs else [])
            needs = f", needs: [{', '.join(named)}]" if named else ""
            if op.kind == "side":
                command = f"echo {op.id} >> \"$SIDE_LOG\"; cat state/u1.txt; echo {params[op.id + '.tag']}"
                lines.append(f"  {op.id}: {{op: exec, command: [sh, -c, '{command}'], "
                             f"env_passthrough: [SIDE_LOG]{needs}}}")
            elif op.kind == "pure":
                lines.append(f"  {op.id}: {{op: exec, command: [echo, {params[op.id + '.tag']}], cache: true{needs}}}")
            elif op.kind == "exec":
                quoted = ", ".join(f"'{p}'" for p in op.inputs)
                declared = (f", inputs: [{quoted}]" if op.inputs else "") + (f", outputs: [{op.output}]" if op.output else "")
                lines.append(f"  {op.id}: {{op: exec, command: [{op.tool}, {params[op.id + '.tag']}, "
                             f"{op.output or '/dev/stdout'}{', ' if op.inputs else ''}{quoted}]{declared}, "
                             f"env: {{TG_OP: {op.id}}}, env_passthrough: [RAN_LOG]{needs}}}")
            elif op.kind == "load":
                lines.append(f"  {op.id}: {{op: load, path: {op.path}{needs}}}")
            elif op.kind == "filter":
                extra = "".join(f", {name.split('.')[1]}: {value}" for name, value in sorted(params.items())
                                if name.startswith(op.id + "."))
                lines.append(f"  {op.id}: {{op: {op.type}{extra}{needs}}}")
            elif op.kind == "save":
                lines.append(f"  {op.id}: {{op: save, path: {op.path}{needs}}}")
            elif op.kind == "group":
                lines.append(f"  {op.id}: {{op: group{needs}}}")
        return ("\n".join(lines) + "\n").encode()


class State:
    """What the working copy holds besides outputs: source files (the pipeline file among
    them) and parameters."""

    def __init__(self, pipeline):
        self.pipeline = pipeline
        self.files = dict(pipeline.sources)
        self.params = dict(pipeline.params)
        self.render()

    def render(self):
        self.files["pipeline.yaml"] = self.pipeline.yaml(self.params)

    def fingerprint(self):
        return digest(sorted(self.files.items()))


def evaluate(state, copy):
    """The model: per operation, its key (None: runs every time) and result, and every file
    the run writes (exec outputs, text saves of loaded bytes)."""
    files = dict(state.files)
    keys, results = {}, {}
    for op in state.pipeline.order:
        deps = tuple(results[d] for d in op.needs + op.inferred)
        p = state.params
        if op.kind == "side":
            keys[op.id], results[op.id] = None, digest(files["state/u1.txt"], p[op.id + ".tag"])
        elif op.kind == "pure":
            keys[op.id] = digest("pure", p[op.id + ".tag"], deps)
            results[op.id] = digest(p[op.id + ".tag"])
        elif op.kind == "exec":
            program = f"bin-a/{op.tool}" if f"bin-a/{op.tool}" in files else f"bin/{op.tool}"
            read = [path for pattern in op.inputs for path in (expand(pattern, files) if is_pattern(pattern)
                                                               else [pattern])]
            content = b"".join(files[path] for path in read)
            output = transform(tool_mode(files[program]), content)
            keys[op.id] = digest("exec", op.id, program, files[program], p[op.id + ".tag"], op.inputs,
                                 [(path, files[path]) for path in read], deps, copy)
            results[op.id] = digest(p[op.id + ".tag"], output)
            if op.output:
                files[op.output] = output
        elif op.kind == "load":
            keys[op.id] = digest("load", op.path, files[op.path], deps)
            results[op.id] = files[op.path]
        elif op.kind == "filter":
            params = sorted((k, v) for k, v in p.items() if k.startswith(op.id + "."))
            keys[op.id] = digest(op.type, params, deps)
            results[op.id] = digest("image", keys[op.id])
        elif op.kind == "save":
            keys[op.id] = digest("save", op.path, deps, copy)
            source = state.pipeline.byid[op.needs[0]]
            if source.kind == "load":
                files[f"out/{op.path}"] = results[source.id]
            else:
                files[f"out/{op.path}"] = digest("saved", deps)
            results[op.id] = digest("saved", deps)
        elif op.kind == "group":
            keys[op.id], results[op.id] = "group", "group"
    return keys, results


def expected_runs(state, keys, recorded):
    """The operations a run should start: side effects, keys never recorded, and groups that
    need something that runs."""
    runs = set()
    for op in state.pipeline.order:
        if op.kind == "side" or (op.kind not in ("group",) and keys[op.id] not in recorded):
            runs.add(op.id)
        elif op.kind == "group" and any(need in runs for need in op.needs):
            runs.add(op.id)
    return runs


# Working copies -------------------------------------------------------------------------------

def write_file(path, data, executable=False):
    """Writes through a temporary file renamed into place (as replacing a program would)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.write")
    temporary.write_bytes(data)
    if executable:
        temporary.chmod(0o755)
    os.replace(temporary, path)


def sync(directory, state, previous):
    """Makes `directory`'s sources those of `state` (`previous`: what it held)."""
    for name in previous:
        if name not in state.files:
            (directory / name).unlink()
    for name, data in state.files.items():
        if previous.get(name) != data:
            write_file(directory / name, data, executable=name.startswith("bin"))


def tree(directory):
    """Every file under `directory` (relative path → bytes), except temporary files a killed run
    left (`.NAME.tmp-XXXXXX`)."""
    return {str(path.relative_to(directory)): path.read_bytes() for path in directory.rglob("*")
            if path.is_file() and ".tmp-" not in path.name}


def tree_differences(actual, reference):
    problems = []
    for name in sorted(set(actual) | set(reference)):
        if name not in actual:
            problems.append(f"{name} missing (the clean run has it)")
        elif name not in reference:
            problems.append(f"{name} present, but not in the clean run")
        elif actual[name] != reference[name]:
            problems.append(f"{name} differs: {actual[name][:60]!r} != clean {reference[name][:60]!r}")
    return problems


class Copy:
    """A working copy: a directory, its side-effect and tool logs, its events."""

    def __init__(self, work, name, store):
        self.directory, self.store = work / name, store
        self.side_log, self.ran_log = work / f"{name}-side.log", work / f"{name}-ran.log"
        self.events = work / f"{name}-events.jsonl"
        self.directory.mkdir(parents=True)
        self.held = {}

    def environment(self):
        d = self.directory
        return dict(os.environ, NO_COLOR="1", LC_ALL="C", TASKGRAPH_CACHE_DIR=str(self.store),
                    PATH=f"{d}/bin-a:{d}/bin:/usr/bin:/bin", SIDE_LOG=str(self.side_log), RAN_LOG=str(self.ran_log))

    def start(self, binary, no_cache=False, events=True):
        arguments = [binary, "run", "pipeline.yaml", "--output", "out", "--no-progress"]
        if self.events.exists():
            self.events.unlink()
        arguments += ["--events", str(self.events)] if events else []
        return subprocess.Popen(arguments + (["--no-cache"] if no_cache else []), cwd=self.directory,
                                env=self.environment(), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, start_new_session=True)

    def log_lines(self, log):
        return log.read_text().splitlines() if log.exists() else []


def finish(process, timeout=300):
    try:
        _, stderr = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        _, stderr = process.communicate()
        return -1, "timed out after %ds" % timeout
    return process.returncode, stderr.decode(errors="replace")


def read_events(path):
    """(ran, cached, reasons) from an events file: ran = started; reasons = id → cache reason."""
    ran, cached, reasons, failed = set(), set(), {}, {}
    for line in path.read_text().splitlines() if path.exists() else []:
        try:
            event = json.loads(line)
        except ValueError:
            continue
        kind, id = event.get("event"), event.get("id")
        if kind == "started":
            ran.add(id)
        elif kind == "cached":
            cached.add(id)
        elif kind == "cache":
            reasons[id] = f"{event['cache']['status']}: {event['cache']['reason']} {event['cache'].get('detail', '')}"
        elif kind in ("failed", "timed_out", "skipped", "not_started", "cancelled"):
            failed[id] = f"{kind} {event.get('reason', event.get('because', ''))}"
    return ran, cached, reasons, failed


# Edits ----------------------------------------------------------------------------------------

class Editor:
    def __init__(self, rng, state, copy):
        self.rng, self.state, self.copy = rng, state, copy
        self.values = {"tag": ["t0", "t1", "t2", "t3"], "intensity": [0.5, 0.8, 1], "blur_radius": [1, 2, 3]}

    def sources(self, prefixes=("src/", "data/", "img/", "state/")):
        return sorted(p for p in self.state.files if p.startswith(prefixes))

    def edit_source(self):
        rng, files = self.rng, self.state.files
        name = rng.choice(self.sources(("src/", "data/")))
        lines = files[name].decode().splitlines()
        how = rng.choice(["replace a line", "append a line", "rewrite", "same bytes", "in place"])
        if how == "in place":
            return self.sneaky(name)
        if how == "replace a line":
            lines[rng.randrange(len(lines))] = rng.choice(WORDS)
        elif how == "append a line":
            lines.append(rng.choice(WORDS))
        elif how == "rewrite":
            lines = random_text(rng).decode().splitlines()
        files[name] = "".join(line + "\n" for line in lines).encode()
        if how == "same bytes":
            write_file(self.copy.directory / name, files[name])
        return f"edit source {name} ({how})"

    def sneaky(self, name):
        """Changes one letter or digit of `name` in place (same size, same inode) and puts its
        modification time back: only its change time shows the edit."""
        path, rng = self.copy.directory / name, self.rng
        data = bytearray(path.read_bytes())
        positions = [i for i, c in enumerate(data) if chr(c).isalnum()]
        if not positions:
            return f"edit {name} in place (nothing to change)"
        index = rng.choice(positions)
        alphabet = "0123456789" if chr(data[index]).isdigit() else "abcdefghijklmnopqrstuvwxyz"
        data[index] = ord(rng.choice([c for c in alphabet if ord(c) != data[index]]))
        before = path.stat()
        with open(path, "r+b") as file:
            file.write(data)
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
        if name in self.state.files:
            self.state.files[name] = bytes(data)
            self.copy.held[name] = bytes(data)
        return f"edit {name} in place: same size, same inode, old modification time"

    def change_parameter(self):
        rng, params = self.rng, self.state.params
        name = rng.choice(sorted(params))
        kind = name.split(".")[1]
        choices = ["s0", "s1", "s2"] if name.startswith(("side", "pure")) else self.values[kind]
        old, params[name] = params[name], rng.choice([v for v in choices if v != params[name]])
        self.state.render()
        return f"parameter {name} {old} -> {params[name]}"

    def touch(self):
        name = self.rng.choice(self.sources() + [p for p in self.state.files if p.startswith("bin")] + ["pipeline.yaml"])
        path = self.copy.directory / name
        os.utime(path, ns=(time.time_ns(), time.time_ns()))
        return f"touch {name}"

    def outputs(self):
        directory = self.copy.directory
        return sorted(str(p.relative_to(directory)) for sub in ("gen", "out") for p in (directory / sub).rglob("*")
                      if p.is_file())

    def delete_output(self):
        outputs = self.outputs()
        if not outputs:
            return "delete an output (none yet)"
        if self.rng.random() < 0.15:
            directory = self.rng.choice(["gen", "out"])
            shutil.rmtree(self.copy.directory / directory, ignore_errors=True)
            return f"delete the whole {directory}/ directory"
        name = self.rng.choice(outputs)
        (self.copy.directory / name).unlink()
        return f"delete output {name}"

    def edit_output(self):
        outputs = self.outputs()
        if not outputs:
            return "edit an output (none yet)"
        name = self.rng.choice(outputs)
        if name.endswith((".out", ".txt")) and self.rng.random() < 0.5:
            return "output: " + self.sneaky(name)
        (self.copy.directory / name).write_bytes(b"edited by hand\n")
        return f"edit output {name} by hand"

    def replace_program(self):
        rng, files = self.rng, self.state.files
        tool = rng.choice(self.state.pipeline.tools)
        shadow = f"bin-a/{tool}"
        how = rng.choice(["new revision", "new mode", "shadow", "unshadow" if shadow in files else "new mode"])
        current = files.get(shadow, files[f"bin/{tool}"])
        mode, revision = tool_mode(current), int(current.split(b"revision ")[1].split(b"\n")[0])
        if how == "new revision":
            files[shadow if shadow in files else f"bin/{tool}"] = tool_script(tool, mode, revision + 1)
        elif how == "new mode":
            mode = rng.choice([m for m in MODES if m != mode])
            files[shadow if shadow in files else f"bin/{tool}"] = tool_script(tool, mode, revision + 1)
        elif how == "shadow":
            if rng.random() < 0.5:
                mode = rng.choice(list(MODES))
            files[shadow] = tool_script(tool, mode, revision + 1)
        else:
            del files[shadow]
        return f"replace program {tool} ({how}, mode {tool_mode(files.get(shadow, files[f'bin/{tool}']))})"

    def glob_add(self):
        files = self.state.files
        if not self.state.pipeline.use_glob:
            return self.edit_source()
        n = 1
        while f"data/d{n}.dat" in files or f"data/d{n}.bak" in files:
            n += 1
        files[f"data/d{n}.dat"] = random_text(self.rng)
        return f"add data/d{n}.dat (the glob matches it)"

    def rename(self):
        rng, files = self.rng, self.state.files
        matched = [p for p in files if p.startswith("data/") and p.endswith(".dat")]
        if not matched:
            return self.edit_source()
        name = rng.choice(sorted(matched))
        n = 1
        while f"data/d{n}.dat" in files or f"data/d{n}.bak" in files:
            n += 1
        how = "out of the glob" if len(matched) > 1 and rng.random() < 0.3 else "within the glob"
        new = f"data/d{n}.{'bak' if how == 'out of the glob' else 'dat'}"
        files[new] = files.pop(name)
        os.rename(self.copy.directory / name, self.copy.directory / new)
        self.copy.held[new] = self.copy.held.pop(name)
        return f"rename {name} -> {new} ({how})"

    def edit_undeclared(self):
        if self.state.pipeline.fast:
            return self.edit_source()
        self.state.files["state/u1.txt"] = random_text(self.rng, 1)
        return "edit state/u1.txt (read by side1, undeclared)"

    def edit_image(self):
        images = [p for p in self.state.files if p.startswith("img/")]
        name = self.rng.choice(sorted(images))
        if self.rng.random() < 0.3:
            write_file(self.copy.directory / name, self.state.files[name])
            return f"rewrite {name} with the same bytes"
        self.state.files[name] = random_image(self.rng)
        return f"new pixels in {name}"

    def nothing(self):
        return "nothing changed"

    def random_edit(self):
        edits = [(self.edit_source, 4), (self.change_parameter, 3), (self.touch, 2), (self.delete_output, 2),
                 (self.edit_output, 2), (self.replace_program, 2), (self.glob_add, 1), (self.rename, 1),
                 (self.edit_undeclared, 1), (self.edit_image, 1), (self.nothing, 1)]
        done = []
        for _ in range(self.rng.choices([1, 2, 3], [7, 2, 1])[0]):
            done.append(self.rng.choices([e for e, _ in edits], [w for _, w in edits])[0]())
            # Each edit finds the files of the one before on disk.
            sync(self.copy.directory, self.state, self.copy.held)
            self.copy.held = dict(self.state.files)
        return " + ".join(done)


# The run --------------------------------------------------------------------------------------

def main():
    options = arguments()
    binary = os.path.abspath(options.binary)
    rng = random.Random(options.seed)
    work = Path(tempfile.mkdtemp(prefix="taskgraph-cache-differential-"))
    pipeline = Pipeline(rng, options.explicit_needs)
    state = State(pipeline)
    store = work / "store"
    inc = Copy(work, "incremental", store)
    twin = None
    clean_trees, recorded = {}, set()
    passed = failed = 0
    notes, tally, last_duration = [], {}, 0.3
    cutoffs, previous_results, plain_runs, fast_runs = 0, {}, 0, 0
    needed = {need for op in pipeline.ops for need in op.needs + op.inferred}
    (work / "failures").mkdir()
    print(f"cache-differential: seed {options.seed}, {options.steps} steps, {len(pipeline.ops)} operations"
          f"{' (no side effects, no patterns)' if pipeline.fast else ''}, in {work}")

    def clean_tree():
        """The tree of a clean run of the current state (fresh directory and store, --no-cache)."""
        fingerprint = state.fingerprint()
        if fingerprint not in clean_trees:
            clean = Copy(work / "clean", f"c{len(clean_trees)}", work / "clean" / f"store-{len(clean_trees)}")
            sync(clean.directory, state, {})
            status, stderr = finish(clean.start(binary, no_cache=True))
            failures = read_events(clean.events)[3]
            problems = [] if status == 0 else [f"the clean run failed ({status})"]
            problems += [f"clean run: {id}: {what}" for id, what in sorted(failures.items())]
            clean_trees[fingerprint] = (tree(clean.directory), problems)
            shutil.rmtree(clean.directory)
            shutil.rmtree(clean.store, ignore_errors=True)
        return clean_trees[fingerprint]

    for step in range(1, options.steps + 1):
        editor = Editor(rng, state, inc)
        kind = "first run" if step == 1 else rng.choices(["edit", "kill", "twin"], [8, 1, 1])[0]
        edit = "first run" if step == 1 else editor.random_edit()
        if kind != "edit":
            edit += f", then {'kill -9 mid-run' if kind == 'kill' else 'a second copy at once on the store'}"
        sync(inc.directory, state, inc.held)
        inc.held = dict(state.files)
        keys, results = evaluate(state, "incremental")
        expected = expected_runs(state, keys, recorded)
        # Early cut-offs the step asks for: an operation that runs with its result unchanged,
        # so that what needs it (and reads nothing else that changed) is reused.
        cutoffs += sum(1 for op in pipeline.ops if op.id in expected and op.kind in ("exec", "load")
                       and results[op.id] == previous_results.get(op.id) and op.id in needed)
        previous_results = results
        problems, step_notes = [], []
        if kind == "kill":
            delay = rng.uniform(0, 1.2 * last_duration)
            process = inc.start(binary)
            try:
                process.wait(timeout=delay)
                how = "finished first"
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                how = f"killed after {delay:.2f}s"
            finish(process)
            edit += f" ({how})"
        side_before, ran_before = inc.log_lines(inc.side_log), inc.log_lines(inc.ran_log)
        # A plain run (no --events) may take the up-to-date fast path; what ran is then known
        # from the tools' log alone (file execs).
        plain = kind == "edit" and rng.random() < (0.5 if pipeline.fast else 0.2)
        if plain:
            edit += " (plain run: no --events)"
            time.sleep(options.settle)
        started = time.monotonic()
        process = inc.start(binary, events=not plain)
        if kind == "twin":
            if twin is None:
                twin = Copy(work, "twin", store)
            sync(twin.directory, state, twin.held)
            twin.held = dict(state.files)
            twin_side_before = twin.log_lines(twin.side_log)
            twin_process = twin.start(binary)
        status, stderr = finish(process)
        last_duration = time.monotonic() - started
        if status != 0:
            problems.append(f"exit status {status}: {stderr.strip()[-2000:]}")
        ran, cached, reasons, failures = read_events(inc.events)
        problems += [f"{id}: {what}" for id, what in sorted(failures.items())]
        reference, clean_problems = clean_tree()
        problems += clean_problems
        if not clean_problems:
            problems += tree_differences(tree(inc.directory), reference)
        sides = sorted(op.id for op in pipeline.ops if op.kind == "side")
        side_runs = sorted(inc.log_lines(inc.side_log)[len(side_before):])
        if side_runs != sides:
            problems.append(f"side-effect execs ran {side_runs}, expected {sides}")
        if kind == "twin":
            twin_status, twin_stderr = finish(twin_process)
            if twin_status != 0:
                problems.append(f"second copy: exit status {twin_status}: {twin_stderr.strip()[-2000:]}")
            if not clean_problems:
                problems += [f"second copy: {p}" for p in tree_differences(tree(twin.directory), reference)]
            twin_sides = sorted(twin.log_lines(twin.side_log)[len(twin_side_before):])
            if twin_sides != sides:
                problems.append(f"second copy: side-effect execs ran {twin_sides}, expected {sides}")
        if plain:
            plain_runs += 1
            printed = stderr  # the plain log
            if "nothing changed since the last run" in printed:
                fast_runs += 1
                edit += " (fast path: nothing changed)"
            elif "unchanged since the last run" in printed:
                fast_runs += 1
                edit += " (fast path: from the snapshot)"
            ran = {id for id in expected if pipeline.byid[id].kind not in ("exec",)}
            ran |= set(inc.log_lines(inc.ran_log)[len(ran_before):])
        over, under = sorted(ran - expected), sorted(expected - ran)
        if kind == "twin":
            # Keys name files relative to the pipeline and output directories (key version 3),
            # so what the other copy recorded first is reused here, its files restored at this
            # copy's paths (the tree is still compared with the clean run's); only side-effect
            # execs always run.
            under = [id for id in under if pipeline.byid[id].kind == "side"]
        if kind == "kill":
            if over:
                step_notes.append(f"after the kill, ran though the model expected no run: {over}")
            over = under = []
        # Execs that ran, from the tools' own log (one line per run: the output written).
        tool_runs = sorted(inc.log_lines(inc.ran_log)[len(ran_before):])
        started_execs = sorted(id for id in ran if pipeline.byid.get(id) and pipeline.byid[id].kind == "exec")
        if tool_runs != started_execs and kind != "kill":
            problems.append(f"the tools ran for {tool_runs}, the events started {started_execs}")
        if over or under:
            problems.append(f"ran {sorted(ran)}, expected {sorted(expected)}")
            for id in over:
                problems.append(f"    {id} ran, the model expected it reused ({reasons.get(id, 'no cache event')})")
                tally[f"{pipeline.byid[id].kind} ran, expected reused"] = tally.get(f"{pipeline.byid[id].kind} ran, expected reused", 0) + 1
            for id in under:
                problems.append(f"    {id} did not run, the model expected it to ({reasons.get(id, 'no cache event')})")
                tally[f"{pipeline.byid[id].kind} reused, expected run"] = tally.get(f"{pipeline.byid[id].kind} reused, expected run", 0) + 1
        recorded.update(key for key in keys.values() if key is not None)
        for problem in problems:
            if not problem.startswith(("ran [", "    ")):
                prefix = "second copy: " if problem.startswith("second copy: ") else ""
                problem = problem[len(prefix):]
                category = "output differs from the clean run" if " differs" in problem else problem.split(":")[0]
                tally[prefix + category] = tally.get(prefix + category, 0) + 1
        if problems:
            failed += 1
            saved = work / "failures" / f"step-{step}.yaml"
            saved.write_bytes(state.files["pipeline.yaml"])
            print(f"step {step}: {edit}: FAILED (seed {options.seed}, pipeline {saved})")
            for problem in problems:
                print(f"    {problem}")
        else:
            passed += 1
            print(f"step {step}: {edit}: ok ({len(ran)} ran)")
        for note in step_notes:
            print(f"    note: {note}")
            notes.append(f"step {step}: {note}")
    steps = options.steps
    for category, count in sorted(tally.items()):
        print(f"cache-differential: {count} x {category}")
    print(f"cache-differential: {cutoffs} early cut-offs expected (an operation ran, its result unchanged)")
    print(f"cache-differential: {plain_runs} plain runs, {fast_runs} of them from the up-to-date snapshot")
    print(f"cache-differential: {len(notes)} notes")
    print(f"cache-differential: {steps} steps, {passed} passed, {failed} failed")
    if failed == 0 and not options.keep:
        shutil.rmtree(work, ignore_errors=True)
    elif failed:
        print(f"cache-differential: work directory kept: {work}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
