#!/usr/bin/env bash
# Runs the whole test suite: unit tests and end-to-end tests of the built taskgraph binary.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build --build-tests
swift test --skip-build
