#!/usr/bin/env python3
"""Writes one random DAG of file-producing steps as a taskgraph pipeline, a build.ninja, a
Makefile and a Snakefile, each in its own directory with its own copy of the source files.

Node i (fixed seed) needs 0-3 distinct earlier nodes, chosen uniformly. A node with no
dependency reads a source file src/n<i>.txt; every node writes out/n<i>.txt with the same shell
command in every tool:

    md5sum <inputs> > out/n<i>.txt

so an output's content changes whenever an input's does (no tool can cut a rebuild short) and
stays small (one line per input). Paths are relative to the directory of the build file, where
every tool is run.

    random_dag.py --nodes 10000 --seed 1 DIR

writes DIR/{taskgraph,ninja,make,snakemake}/ and prints `touch <leaf> <dependents>`: a source
file whose node has about nodes/100 transitive dependents (itself included), the one the
benchmark changes for its incremental run.
"""
import argparse
import os
import random
from collections import deque

TOOLS = ("taskgraph", "ninja", "make", "snakemake")


def make_graph(nodes, seed):
    """dependencies[i]: the sorted earlier nodes node i needs."""
    rng = random.Random(seed)
    dependencies = []
    for i in range(nodes):
        count = min(rng.randint(0, 3), i)
        dependencies.append(sorted(rng.sample(range(i), count)))
    return dependencies


def inputs_of(i, dependencies):
    return [f"out/n{d}.txt" for d in dependencies[i]] or [f"src/n{i}.txt"]


def command_of(i, dependencies):
    return f"md5sum {' '.join(inputs_of(i, dependencies))} > out/n{i}.txt"


def dependents_count(leaf, consumers):
    seen = {leaf}
    queue = deque([leaf])
    while queue:
        for consumer in consumers[queue.popleft()]:
            if consumer not in seen:
                seen.add(consumer)
                queue.append(consumer)
    return len(seen)


def leaf_to_touch(dependencies):
    """The last leaf (the cheapest to search from) with at least nodes/100 dependents."""
    consumers = [[] for _ in dependencies]
    for i, needs in enumerate(dependencies):
        for d in needs:
            consumers[d].append(i)
    target = max(1, len(dependencies) // 100)
    best = None
    for i in reversed(range(len(dependencies))):
        if dependencies[i]:
            continue
        count = dependents_count(i, consumers)
        if best is None or count > best[1]:
            best = (i, count)
        if count >= target:
            break
    return best


def taskgraph_yaml(dependencies):
    lines = ["version: 1", "name: random-dag", "operations:"]
    for i, needs in enumerate(dependencies):
        inputs = ", ".join(inputs_of(i, dependencies))
        lines.append(f"  n{i}:")
        lines.append("    op: exec")
        if needs:
            lines.append(f"    needs: [{', '.join(f'n{d}' for d in needs)}]")
        lines.append(f"    command: [sh, -c, '{command_of(i, dependencies)}']")
        lines.append(f"    inputs: [{inputs}]")
        lines.append(f"    outputs: [out/n{i}.txt]")
    return "\n".join(lines) + "\n"


def build_ninja(dependencies):
    lines = ["rule md5", "  command = md5sum $in > $out", ""]
    for i in range(len(dependencies)):
        lines.append(f"build out/n{i}.txt: md5 {' '.join(inputs_of(i, dependencies))}")
    return "\n".join(lines) + "\n"


def makefile(dependencies):
    outputs = " ".join(f"out/n{i}.txt" for i in range(len(dependencies)))
    lines = [".PHONY: all", f"all: {outputs}", ""]
    for i in range(len(dependencies)):
        lines.append(f"out/n{i}.txt: {' '.join(inputs_of(i, dependencies))}")
        lines.append(f"\t{command_of(i, dependencies)}")
    return "\n".join(lines) + "\n"


def snakefile(dependencies):
    table = ",\n".join(f"    {inputs_of(i, dependencies)!r}" for i in range(len(dependencies)))
    return f"""INPUTS = [
{table},
]

wildcard_constraints:
    i=r"\\d+"

rule all:
    input: [f"out/n{{i}}.txt" for i in range(len(INPUTS))]
    default_target: True

rule node:
    input: lambda wildcards: INPUTS[int(wildcards.i)]
    output: "out/n{{i}}.txt"
    shell: "md5sum {{input}} > {{output}}"
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--nodes", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("directory")
    arguments = parser.parse_args()
    dependencies = make_graph(arguments.nodes, arguments.seed)
    files = {
        "taskgraph": ("dag.yaml", taskgraph_yaml(dependencies)),
        "ninja": ("build.ninja", build_ninja(dependencies)),
        "make": ("Makefile", makefile(dependencies)),
        "snakemake": ("Snakefile", snakefile(dependencies)),
    }
    for tool in TOOLS:
        directory = os.path.join(arguments.directory, tool)
        os.makedirs(os.path.join(directory, "src"), exist_ok=True)
        os.makedirs(os.path.join(directory, "out"), exist_ok=True)
        for i, needs in enumerate(dependencies):
            if not needs:
                with open(os.path.join(directory, "src", f"n{i}.txt"), "w") as source:
                    source.write(f"source {i}\n")
        name, text = files[tool]
        with open(os.path.join(directory, name), "w") as build_file:
            build_file.write(text)
    leaf, count = leaf_to_touch(dependencies)
    print(f"touch src/n{leaf}.txt {count}")


if __name__ == "__main__":
    main()
