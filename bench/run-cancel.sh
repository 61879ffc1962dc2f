#!/usr/bin/env bash
# Cancellation latency: time from SIGINT to process exit for `taskgraph run` while several `exec`
# operations are running (they cooperate: SIGTERM ends them). Prints each run and the summary.
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
: >"$work/times.txt"
for run in $(seq "$RUNS"); do
  "$bin" run "$work/sleepers.yaml" --jobs 8 --output "$work/out" >/dev/null 2>&1 &
  pid=$!
  sleep 0.5
  start=$(date +%s%N)
  kill -INT "$pid"
  status=0
  wait "$pid" || status=$?
  end=$(date +%s%N)
  ms=$(( (end - start) / 1000000 ))
  echo "$ms" >>"$work/times.txt"
  echo "run $run: exit $status after ${ms} ms"
done
sort -n "$work/times.txt" | awk '{a[NR]=$1} END {printf "signal to exit over %d runs: median %d ms, max %d ms (target <= 250 ms)\n", NR, a[int((NR+1)/2)], a[NR]}'
