#!/usr/bin/env bash
# Runs the whole test suite (what .ci/run runs):
#   0. the module layering check (scripts/check-layering.py: TaskGraphCore links no image,
#      network or cipher library; families stay apart) and `swift format lint --strict` (the
#      repository's .swift-format: layout, lines of at most 120 columns, names);
#   1. unit and end-to-end tests of the built binary (real processes, signals, HTTP servers,
#      JPEG/PNG files, HTML reports in headless Chromium, a short interrupt-torture run, a
#      single-node Slurm cluster on 127.0.0.1 that SlurmExecutorTests start and stop with
#      scripts/slurm-cluster.sh), then the DocC catalog and the Examples/ package built, and
#      its programs run;
#   2. the same suite under ThreadSanitizer (scripts/sanitize.sh thread);
#   3. every fuzz target for FUZZ_SECONDS seconds each (default 30; fuzz/run-all).
# QUICK=1 runs step 1 only, for a fast check while developing.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --browser
# The Slurm tests stop their cluster themselves; this covers a test process that crashed.
trap 'scripts/slurm-cluster.sh stop >/dev/null 2>&1 || true' EXIT
scripts/check-layering.py
swift format lint --strict --recursive --parallel Sources Tests bench/Sources fuzz/Sources Examples
swift build --build-tests
swift test --skip-build
scripts/build-docs.sh
swift build --package-path Examples
examples_work=$(mktemp -d)
Examples/.build/debug/PhotoFlow pipelines/photos "$examples_work"
rm -rf "$examples_work"
if [[ ${QUICK:-0} == 1 ]]; then exit 0; fi
scripts/sanitize.sh thread
fuzz/run-all "${FUZZ_SECONDS:-30}"
