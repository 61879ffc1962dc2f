#!/usr/bin/env bash
# The Slurm executor on the loopback cluster (scripts/slurm-cluster.sh), side by side:
#   1. per-job overhead: N trivial jobs through `taskgraph run --executor slurm` against N bare
#      `sbatch --wait` of the same command, all submitted at once;
#   2. pipelines/photos.yaml locally and on the cluster (unfused: fusion is not implemented);
#   3. a queue of QUEUED jobs (sleep 600, --jobs QUEUED) for WINDOW seconds: the driver's CPU
#      time and its queue queries per minute, then Ctrl-C (one scancel for all of them).
# TASKGRAPH names the binary (default: this checkout's debug build). Prints one line per measure.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-20}
QUEUED=${QUEUED:-1000}
WINDOW=${WINDOW:-120}
bin=${TASKGRAPH:-$(swift build --show-bin-path)/taskgraph}
work=$PWD/bench/.work/slurm
rm -rf "$work" && mkdir -p "$work"
eval "$(scripts/slurm-cluster.sh start)"
now() { date +%s.%N; }
elapsed() { echo "$(now) - $1" | bc; }

items=$(seq -s, 1 "$N")
cat >"$work/trivial.yaml" <<YAML
version: 1
vars: {items: [$items]}
operations:
  job: {foreach: "\${items}", op: exec, command: ["true"], cache: false}
YAML
start=$(now)
for _ in $(seq "$N"); do sbatch --wait --quiet --output=/dev/null --wrap true & done
wait
echo "overhead: $N bare 'sbatch --wait' jobs: $(elapsed "$start") s"
start=$(now)
(cd "$work" && "$bin" run trivial.yaml --executor slurm --store "$work/store" --no-progress 2>"$work/trivial.log" >/dev/null)
echo "overhead: $N jobs through taskgraph: $(elapsed "$start") s ($(grep '^slurm: [0-9]' "$work/trivial.log"))"

cp -r pipelines/photos.yaml pipelines/photos "$work/"
start=$(now)
(cd "$work" && "$bin" run photos.yaml --output "$work/local" --cache-dir "$work/local-cache" --no-progress >/dev/null 2>&1)
echo "photos: local: $(elapsed "$start") s"
start=$(now)
(cd "$work" && "$bin" run photos.yaml --output "$work/cluster" --executor slurm --store "$work/store" --no-progress \
  2>"$work/photos.log" >/dev/null)
echo "photos: cluster, unfused: $(elapsed "$start") s ($(grep '^slurm: [0-9]' "$work/photos.log"))"
diff -r "$work/local" "$work/cluster" >/dev/null && echo "photos: outputs byte-identical"

items=$(seq -s, 1 "$QUEUED")
cat >"$work/queue.yaml" <<YAML
version: 1
vars: {items: [$items]}
operations:
  nap: {foreach: "\${items}", op: exec, command: [sleep, "600"], cache: false}
YAML
(cd "$work" && exec "$bin" run queue.yaml --executor slurm --store "$work/store" --jobs "$QUEUED" --no-progress \
  2>"$work/queue.log" >/dev/null) &
driver=$!
sleep "$WINDOW"
queued=$(squeue --noheader --name="$(grep -o 'taskgraph-[0-9a-f]*' "$work/queue.log" | head -1)" | wc -l)
ticks=$(awk '{ print $14 + $15 }' "/proc/$(pgrep -P $driver -f 'run queue.yaml' || echo $driver)/stat" 2>/dev/null || echo 0)
start=$(now)
kill -INT "$(pgrep -P $driver -f 'run queue.yaml' || echo $driver)"
wait "$driver" || true
echo "queue: $queued jobs in squeue after ${WINDOW} s; driver CPU $(echo "scale=2; $ticks / $(getconf CLK_TCK)" | bc) s;" \
  "Ctrl-C to exit $(elapsed "$start") s; $(grep '^slurm: [0-9]' "$work/queue.log")"
