#!/usr/bin/env bash
# Builds everything (installing missing system packages) and runs pipelines/photos.yaml, with its
# HTML report in out/photos-report.html (open it in a browser).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build -c release --product taskgraph
# The file-access tracer `run --lint` loads into programs, beside the binary.
swift build -c release --product TaskGraphFileTrace
mkdir -p out
exec .build/release/taskgraph run pipelines/photos.yaml --report out/photos-report.html "$@"
