#!/usr/bin/env python3
"""Checks the module graph drawn in README.md (Layout) against Package.swift.

Fails when a module depends, directly or through other targets, on something its layer may not
link: TaskGraphBasics on any module of ours but C shims; TaskGraphPipeline (the format) on any
module of ours but the basics, libyaml and C shims; TaskGraphCore on an image, network or
cipher module or C library; an operation family on
another family, on reporting or on the CLI; any target on the file-access tracer. Run by
scripts/test.sh.
"""
import json
import subprocess
import sys

# Every target of the product but the C shims and libraries, which the basics may link.
PRODUCT_MODULES = {"TaskGraphPipeline", "TaskGraphCore", "TaskGraphImaging", "TaskGraphNetwork", "TaskGraphCrypto",
                   "TaskGraphReporting", "TaskGraphStore", "TaskGraphSlurm", "taskgraph"}

FORBIDDEN = {
    "TaskGraphBasics": PRODUCT_MODULES | {"CYAML", "CJPEG", "CPNG", "CImageShims", "CCurl", "CCurlShim", "Crypto"},
    # The format reads a file into a checked spec against operation declarations and expands its
    # instances; it names no action, graph or engine type: TaskGraphCore makes the actions and the graph.
    "TaskGraphPipeline": (PRODUCT_MODULES - {"TaskGraphPipeline"})
    | {"CJPEG", "CPNG", "CImageShims", "CCurl", "CCurlShim", "Crypto"},
    "TaskGraphCore": {"CJPEG", "CPNG", "CImageShims", "CCurl", "CCurlShim", "TaskGraphImaging",
                      "TaskGraphNetwork", "TaskGraphCrypto", "TaskGraphReporting", "taskgraph"},
    "TaskGraphImaging": {"CCurl", "CCurlShim", "TaskGraphNetwork", "TaskGraphCrypto", "TaskGraphReporting"},
    "TaskGraphNetwork": {"CJPEG", "CPNG", "CImageShims", "TaskGraphImaging", "TaskGraphCrypto", "TaskGraphReporting"},
    "TaskGraphCrypto": {"CJPEG", "CPNG", "CImageShims", "CCurl", "CCurlShim", "TaskGraphImaging",
                        "TaskGraphNetwork", "TaskGraphReporting"},
    "TaskGraphStore": {"CJPEG", "CPNG", "CImageShims", "CCurl", "CCurlShim", "TaskGraphImaging",
                       "TaskGraphNetwork", "TaskGraphCrypto", "TaskGraphReporting", "taskgraph"},
    "TaskGraphSlurm": {"CJPEG", "CPNG", "CImageShims", "CCurl", "CCurlShim", "TaskGraphImaging",
                       "TaskGraphNetwork", "TaskGraphCrypto", "TaskGraphReporting", "TaskGraphStore", "taskgraph"},
    "TaskGraphReporting": {"CJPEG", "CPNG", "CImageShims", "CCurl", "CCurlShim", "TaskGraphImaging",
                           "TaskGraphNetwork", "TaskGraphCrypto"},
}

PRELOADED_ONLY = "CFileAccessTrace"

description = json.loads(subprocess.run(
    ["swift", "package", "describe", "--type", "json"], check=True, capture_output=True, text=True).stdout)
# Products of other packages count by their names (swift-crypto's `Crypto`).
dependencies = {target["name"]: set(target.get("target_dependencies") or []) | set(target.get("product_dependencies") or [])
                for target in description["targets"]}


def closure(name):
    """Every target `name` depends on, directly or not."""
    seen, stack = set(), [name]
    while stack:
        for dependency in dependencies.get(stack.pop(), ()):
            if dependency not in seen:
                seen.add(dependency)
                stack.append(dependency)
    return seen


problems = [f"{module} depends on {', '.join(sorted(closure(module) & forbidden))}"
            for module, forbidden in FORBIDDEN.items() if closure(module) & forbidden]
# The file-access tracer is preloaded into `exec` programs (run --lint); linked into any target,
# its open() and rename() would stand in for the target's own.
problems += [f"{name} depends on {PRELOADED_ONLY}, which only exec programs may load"
             for name in sorted(dependencies) if PRELOADED_ONLY in closure(name)]
for problem in problems:
    print(f"check-layering: {problem}", file=sys.stderr)
if problems:
    sys.exit(1)
print(f"check-layering: {len(FORBIDDEN)} modules keep to their layers")
