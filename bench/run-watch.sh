#!/usr/bin/env bash
# `run --watch` latency: from the close of a changed input file to the start of the `exec` that
# reads it, RUNS times (default 20), for `taskgraph run --watch` (debounce 100 ms, then a new
# `taskgraph run` that loads the pipeline, reuses the rest and starts the exec) and, side by
# side, entr (apt: entr), which runs the same command on each change without a pipeline.
# Prints each tool's median and the ratio. Target (issue #31): taskgraph's median <= 200 ms.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-20}
work=$(pwd)/bench/.work/watch
rm -rf "$work" && mkdir -p "$work/in"
command -v entr >/dev/null || sudo_apt=1
if [[ ${sudo_apt:-0} == 1 ]]; then apt-get install -y -qq entr >/dev/null; fi
swift build -c release --product taskgraph >/dev/null
bin="$(swift build -c release --show-bin-path)/taskgraph"
cat >"$work/watched.yaml" <<'YAML'
version: 1
name: watched
output: out
operations:
  stamp: {op: exec, inputs: [in/a.txt], command: [sh, -c, "date +%s%N > .started.new && mv .started.new .started; cat in/a.txt"]}
YAML

# Writes the input RUNS times; after each, waits for .started to change and prints the latency
# in milliseconds from the write's close.
measure() {
  python3 - "$work" "$RUNS" <<'PY'
import os, sys, time
work, runs = sys.argv[1], int(sys.argv[2])
stamp = os.path.join(work, ".started")
def started():
    try:
        with open(stamp) as f: return f.read().strip()
    except OSError: return ""
deadline = time.time() + 30
while not started() and time.time() < deadline: time.sleep(0.01)
time.sleep(1.0)
for run in range(runs):
    before = started()
    with open(os.path.join(work, "in/a.txt"), "w") as f: f.write(f"change {run}\n")
    closed = time.time_ns()
    give_up = time.time() + 10
    while started() == before and time.time() < give_up: time.sleep(0.002)
    if started() != before: print((int(started()) - closed) / 1e6)
    else: print("no run within 10 s", file=sys.stderr)
    time.sleep(0.5)
PY
}

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

echo "first" >"$work/in/a.txt"
(cd "$work" && TASKGRAPH_CACHE_DIR="$work/store" exec "$bin" run watched.yaml --watch --no-progress --logs none >/dev/null 2>&1) &
watcher=$!
taskgraph_ms=$(measure | tee "$work/taskgraph.txt" | median)
kill -INT "$watcher"; wait "$watcher" || true

rm -f "$work/.started"
(cd "$work" && echo in/a.txt | exec entr -n sh -c 'date +%s%N > .started.new && mv .started.new .started; cat in/a.txt' >/dev/null 2>&1) &
entr_pid=$!
entr_ms=$(measure | tee "$work/entr.txt" | median)
kill "$entr_pid"; wait "$entr_pid" 2>/dev/null || true

echo "change to exec start, median of $RUNS (ms): taskgraph --watch $taskgraph_ms, entr $entr_ms"
awk -v t="$taskgraph_ms" -v e="$entr_ms" 'BEGIN { printf "taskgraph / entr: %.1fx; target <= 200 ms: %s\n", t / e, (t <= 200 ? "met" : "not met") }'
