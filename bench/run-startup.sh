#!/usr/bin/env bash
# Start-up benchmark: how long taskgraph takes for the commands editors and git hooks run on every
# save, against ninja doing the same kind of nothing: `taskgraph --version` vs `ninja --version`,
# and `taskgraph validate` of a one-operation file vs `ninja -n` (a dry run) of a one-edge
# build.ninja. hyperfine runs each command RUNS times after WARMUP runs (one command after the
# other); prints a Markdown table of wall-time means, medians and minimums, the mean CPU time
# (user + system: it moves less than wall time when other work shares the machine), and
# taskgraph's over ninja's. Needs: apt-get install -y hyperfine ninja-build.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-200}
WARMUP=${WARMUP:-20}
work=$PWD/bench/.work/startup
mkdir -p "$work"

# TASKGRAPH=path times that binary instead of building this tree's release one.
if [[ -n ${TASKGRAPH:-} ]]; then
  bin=$TASKGRAPH
else
  swift build -c release --product taskgraph >/dev/null
  bin=$(swift build -c release --show-bin-path)/taskgraph
fi

cat >"$work/one.yaml" <<'YAML'
version: 1
name: one
operations:
  hello:
    op: exec
    command: [echo, hello]
YAML
cat >"$work/build.ninja" <<'NINJA'
rule echo
  command = echo hello > $out
build hello.txt: echo
NINJA

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $RUNS runs each after $WARMUP warm-up runs"
hyperfine -N --style none --warmup "$WARMUP" --runs "$RUNS" --export-json "$work/times.json" \
  -n "taskgraph --version" "$bin --version" \
  -n "ninja --version" "ninja --version" \
  -n "taskgraph validate one.yaml" "$bin validate $work/one.yaml" \
  -n "ninja -n" "ninja -C $work -n" >/dev/null 2>&1
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
python3 - "$work/times.json" <<'PY'
import json, sys
results = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
ms = lambda seconds: f"{seconds * 1000:.2f} ms"
cpu = lambda r: r["user"] + r["system"]
print("| command | mean | median | min | CPU | median ÷ ninja's | CPU ÷ ninja's |")
print("|---|---|---|---|---|---|---|")
for command, peer in [("taskgraph --version", "ninja --version"), ("taskgraph validate one.yaml", "ninja -n")]:
    for name, other in [(command, peer), (peer, None)]:
        r = results[name]
        ratios = f"{r['median'] / results[other]['median']:.1f}× | {cpu(r) / cpu(results[other]):.1f}×" if other else " | "
        print(f"| `{name}` | {ms(r['mean'])} | {ms(r['median'])} | {ms(r['min'])} | {ms(cpu(r))} | {ratios} |")
PY
