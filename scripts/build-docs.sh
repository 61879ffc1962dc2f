#!/usr/bin/env bash
# Builds the library's documentation into .build/docs/taskgraph.doccarchive: the DocC catalog of
# TaskGraphCore (Sources/TaskGraphCore/TaskGraphCore.docc) and the public API of the modules it
# re-exports (TaskGraphPipeline, TaskGraphBasics), one archive each, merged under one landing
# page. Fails on any DocC warning (a broken symbol link, a topic that names nothing). Parameter
# lists document the parameters that need explaining, not every one, so DocC's check that each
# lists all is off. scripts/test.sh runs it.
set -euo pipefail
shopt -s nullglob
cd "$(dirname "$0")/.."
rm -rf .build/symbol-graphs .build/docs
swift package dump-symbol-graph --minimum-access-level public >/dev/null 2>&1
mkdir -p .build/docs

# convert MODULE [CATALOG]: MODULE's symbol graphs (and its catalog, if any) into an archive.
convert() {
    local module=$1 symbols=.build/symbol-graphs/$1
    mkdir -p "$symbols"
    cp .build/*/symbolgraph/"$module"{,@*}.symbols.json "$symbols"/
    docc convert ${2:+"$2"} --additional-symbol-graph-dir "$symbols" \
        --fallback-display-name "$module" --fallback-bundle-identifier "org.taskgraph.$module" \
        --output-path ".build/docs/$module.doccarchive" --disable-parameters-and-returns-validation \
        --warnings-as-errors
}

convert TaskGraphCore Sources/TaskGraphCore/TaskGraphCore.docc
convert TaskGraphPipeline
convert TaskGraphBasics
docc merge .build/docs/TaskGraphCore.doccarchive .build/docs/TaskGraphPipeline.doccarchive \
    .build/docs/TaskGraphBasics.doccarchive --synthesized-landing-page-name taskgraph \
    --output-path .build/docs/taskgraph.doccarchive
