#!/usr/bin/env bash
# Builds the DocC catalog of TaskGraphCore (Sources/TaskGraphCore/TaskGraphCore.docc) into
# .build/docs/TaskGraphCore.doccarchive; fails on any DocC warning (a broken symbol link, a
# topic that names nothing). Parameter lists document the parameters that need explaining, not
# every one, so DocC's check that each lists all is off. scripts/test.sh runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
symbols=.build/symbol-graphs
rm -rf "$symbols"
swift package dump-symbol-graph --minimum-access-level public >/dev/null 2>&1
mkdir -p "$symbols" .build/docs
cp .build/*/symbolgraph/TaskGraphCore*.symbols.json "$symbols"/
docc convert Sources/TaskGraphCore/TaskGraphCore.docc \
    --additional-symbol-graph-dir "$symbols" \
    --fallback-display-name TaskGraphCore --fallback-bundle-identifier org.taskgraph.TaskGraphCore \
    --output-path .build/docs/TaskGraphCore.doccarchive --disable-parameters-and-returns-validation \
    --warnings-as-errors
