#!/usr/bin/env python3
"""Writes one graph of `touch` tasks for every runner bench/run-runners.sh compares: a taskgraph
pipeline, a build.ninja, a Makefile, a Snakefile and the task list the `xargs -P` floor reads,
each in its own directory (DIR/<tool>/, with an empty out/).

Task i writes out/n<i> with `touch out/n<i>`, after the tasks it needs. Shapes:

    chain    task i needs task i-1
    fan      task 0, then tasks 1..N-2 each needing task 0, then task N-1 needing all of them
    random   task i needs min(3, i) distinct earlier tasks chosen uniformly (fixed seed)

    runner_graphs.py --shape random --tasks 2000 DIR

prints the number of edges.
"""
import argparse
import os
import random

TOOLS = ("taskgraph", "ninja", "make", "snakemake", "xargs")


def make_graph(shape, tasks, seed):
    """needs[i]: the sorted earlier tasks task i needs."""
    if shape == "chain":
        return [[i - 1] if i else [] for i in range(tasks)]
    if shape == "fan":
        return [[] if i == 0 else [0] if i < tasks - 1 else list(range(1, tasks - 1)) for i in range(tasks)]
    rng = random.Random(seed)
    return [sorted(rng.sample(range(i), min(3, i))) for i in range(tasks)]


def taskgraph_yaml(needs):
    lines = ["version: 1", "name: runners", "operations:"]
    for i, earlier in enumerate(needs):
        lines.append(f"  n{i}:")
        lines.append("    op: exec")
        if earlier:
            lines.append(f"    needs: [{', '.join(f'n{d}' for d in earlier)}]")
        lines.append(f"    command: [touch, out/n{i}]")
    return "\n".join(lines) + "\n"


def build_ninja(needs):
    lines = ["rule touch", "  command = touch $out", ""]
    for i, earlier in enumerate(needs):
        order = f" | {' '.join(f'out/n{d}' for d in earlier)}" if earlier else ""
        lines.append(f"build out/n{i}: touch{order}")
    return "\n".join(lines) + "\n"


def makefile(needs):
    # No shell metacharacters in the recipe: make runs `touch` without a shell.
    lines = [".PHONY: all", f"all: {' '.join(f'out/n{i}' for i in range(len(needs)))}", ""]
    for i, earlier in enumerate(needs):
        lines.append(f"out/n{i}: {' '.join(f'out/n{d}' for d in earlier)}".rstrip())
        lines.append("\ttouch $@")
    return "\n".join(lines) + "\n"


def snakefile(needs):
    table = ",\n".join(f"    {[f'out/n{d}' for d in earlier]!r}" for earlier in needs)
    return f"""NEEDS = [
{table},
]

wildcard_constraints:
    i=r"\\d+"

rule all:
    input: [f"out/n{{i}}" for i in range(len(NEEDS))]
    default_target: True

rule node:
    input: lambda wildcards: NEEDS[int(wildcards.i)]
    output: "out/n{{i}}"
    shell: "touch {{output}}"
"""


def task_list(needs):
    return "".join(f"out/n{i}\n" for i in range(len(needs)))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shape", choices=("chain", "fan", "random"), default="random")
    parser.add_argument("--tasks", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("directory")
    arguments = parser.parse_args()
    needs = make_graph(arguments.shape, arguments.tasks, arguments.seed)
    files = {
        "taskgraph": ("dag.yaml", taskgraph_yaml(needs)),
        "ninja": ("build.ninja", build_ninja(needs)),
        "make": ("Makefile", makefile(needs)),
        "snakemake": ("Snakefile", snakefile(needs)),
        "xargs": ("tasks.txt", task_list(needs)),
    }
    for tool in TOOLS:
        directory = os.path.join(arguments.directory, tool)
        os.makedirs(os.path.join(directory, "out"), exist_ok=True)
        name, text = files[tool]
        with open(os.path.join(directory, name), "w") as build_file:
            build_file.write(text)
    print(sum(len(earlier) for earlier in needs))


if __name__ == "__main__":
    main()
