#!/usr/bin/env bash
# The Slurm executor on the loopback cluster (scripts/slurm-cluster.sh), side by side:
#   1. per-job overhead: N trivial jobs through `taskgraph run --executor slurm` against N bare
#      `sbatch --wait` of the same command, all submitted at once;
#   2. pipelines/photos.yaml, then a PHOTOS-photo variant (the three photos repeated), locally
#      locally, on the cluster unfused and fused (--fuse), each with a store of its own: time, jobs
#      submitted, bytes the store holds after the run, outputs compared byte for byte;
#   3. a queue of QUEUED jobs (sleep 600, --jobs QUEUED) for WINDOW seconds: the driver's CPU
#      time, its queue queries per minute, then SIGINT: the time from the signal to the driver's
#      exit and the jobs of the run left in squeue.
# PHOTOS_ONLY=1 stops after part 2. TASKGRAPH names the binary (default: this checkout's debug build). Prints one line per measure.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-20}
PHOTOS=${PHOTOS:-100}
PHOTOS_ONLY=${PHOTOS_ONLY:-0}   # 1: stop after part 2
QUEUED=${QUEUED:-1000}
WINDOW=${WINDOW:-120}
bin=${TASKGRAPH:-$(swift build --show-bin-path)/taskgraph}
work=$PWD/bench/.work/slurm
rm -rf "$work" && mkdir -p "$work"
eval "$(scripts/slurm-cluster.sh start)"
now() { date +%s.%N; }
elapsed() { echo "$(now) - $1" | bc; }
stats() { grep '^slurm: [0-9]' "$1"; }

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
bare=$(elapsed "$start")
echo "overhead: $N bare 'sbatch --wait' jobs: $bare s"
start=$(now)
(cd "$work" && "$bin" run trivial.yaml --executor slurm --store "$work/store" --no-progress 2>"$work/trivial.log" >/dev/null)
ours=$(elapsed "$start")
echo "overhead: $N jobs through taskgraph: $ours s ($(stats "$work/trivial.log")); per job vs bare:" \
  "$(echo "scale=3; ($ours - $bare) / $N" | bc) s"

# photos.yaml, then the PHOTOS variant: photo I is a copy of one of the three.
cp -r pipelines/photos.yaml pipelines/photos "$work/"
names=(mountains sunset seedling)
list=""
for i in $(seq "$PHOTOS"); do
  cp "$work/photos/${names[i % 3]}.jpg.enc" "$work/photos/p$i.jpg.enc"
  list+="${list:+, }p$i"
done
sed "s/^  photos: \[.*\]/  photos: [$list]/" "$work/photos.yaml" >"$work/photos-$PHOTOS.yaml"
# Each mode with a store of its own: the bytes it wrote are `du` of that store (job files removed).
bytes() { du -sb "$1" | cut -f1; }
for pipeline in photos photos-$PHOTOS; do
  start=$(now)
  (cd "$work" && "$bin" run "$pipeline.yaml" --output "$work/$pipeline-local" --cache-dir "$work/$pipeline-local-store" \
    --no-progress >/dev/null 2>&1)
  echo "$pipeline: local: $(elapsed "$start") s; store $(bytes "$work/$pipeline-local-store") bytes"
  for mode in unfused fused; do
    flag=$([ "$mode" = fused ] && echo --fuse || true)
    start=$(now)
    (cd "$work" && "$bin" run "$pipeline.yaml" --output "$work/$pipeline-$mode" --executor slurm \
      --store "$work/$pipeline-$mode-store" $flag --no-progress 2>"$work/$pipeline-$mode.log" >/dev/null)
    echo "$pipeline: cluster, $mode: $(elapsed "$start") s ($(stats "$work/$pipeline-$mode.log"));" \
      "store $(bytes "$work/$pipeline-$mode-store") bytes; $(grep 'remote jobs:' "$work/$pipeline-$mode.log")"
    diff -r "$work/$pipeline-local" "$work/$pipeline-$mode" >/dev/null && echo "$pipeline: $mode outputs byte-identical"
  done
done
[ "$PHOTOS_ONLY" = 1 ] && exit 0

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
started=$(now)
sleep "$WINDOW"
run=$(grep -o 'taskgraph-[0-9a-f]*' "$work/queue.log" | head -1)
queued=$(squeue --noheader --array --name="$run" | wc -l)
ticks=$(awk '{ print $14 + $15 }' "/proc/$driver/stat")
window=$(elapsed "$started")
start=$(now)
kill -INT "$driver"
wait "$driver" || true
stopped=$(elapsed "$start")
left=$(squeue --noheader --array --name="$run" | wc -l)
queries=$(stats "$work/queue.log" | sed -E 's/.* ([0-9]+) queue quer.*/\1/')
echo "queue: $queued jobs in squeue after ${WINDOW} s; driver CPU $(echo "scale=2; $ticks / $(getconf CLK_TCK)" | bc) s;" \
  "$(echo "scale=1; $queries * 60 / ($window + $stopped)" | bc) queue queries a minute;" \
  "SIGINT to exit $stopped s, $left left in squeue; $(stats "$work/queue.log")"
