#!/usr/bin/env bash
# Cancellation latency: time from SIGINT to process exit for `taskgraph run` while (1) eight
# `exec` operations run (they cooperate: SIGTERM ends them) and (2) a download is mid-transfer
# from a local server that drips one byte every 50 ms. Prints each run and the summary.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-20}
work=bench/.work/cancel
rm -rf "$work" && mkdir -p "$work"
swift build -c release --product taskgraph >/dev/null
bin="$(swift build -c release --show-bin-path)/taskgraph"
cat >"$work/sleepers.yaml" <<'YAML'
version: 1
vars: {items: [a, b, c, d, e, f, g, h]}
operations:
  sleep: {foreach: "${items}", op: exec, command: [sleep, "30"]}
  after: {foreach: "${items}", op: save, needs: sleep, path: "${item}.txt"}
YAML
source bench/test-server.sh
start_test_server "$work"
cat >"$work/download.yaml" <<YAML
version: 1
operations:
  fetch: {op: download, url: "http://127.0.0.1:$port/drip/1000/50"}
  keep: {op: save, needs: fetch, path: slow.bin}
YAML

for scenario in sleepers download; do
  : >"$work/times.txt"
  for run in $(seq "$RUNS"); do
    "$bin" run "$work/$scenario.yaml" --jobs 8 --output "$work/out" >/dev/null 2>&1 &
    pid=$!
    sleep 0.5
    start=$(date +%s%N)
    kill -INT "$pid"
    status=0
    wait "$pid" || status=$?
    end=$(date +%s%N)
    ms=$(( (end - start) / 1000000 ))
    echo "$ms" >>"$work/times.txt"
    echo "$scenario run $run: exit $status after ${ms} ms, files left: $(ls "$work/out" 2>/dev/null | wc -l)"
  done
  sort -n "$work/times.txt" | awk -v s="$scenario" '{a[NR]=$1} END {printf "%s: signal to exit over %d runs: median %d ms, max %d ms (target <= 250 ms)\n", s, NR, a[int((NR+1)/2)], a[NR]}'
done
