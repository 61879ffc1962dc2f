#!/usr/bin/env bash
# Builds everything (installing missing system packages) and runs pipelines/photos.yaml.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build -c release --product taskgraph
exec .build/release/taskgraph run pipelines/photos.yaml "$@"
