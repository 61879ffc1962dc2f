#!/usr/bin/env bash
# What the cache costs a cold run (issue #30): each workload with the cache on (the default, a
# fresh store every run) against the same workload with `defaults: {cache: false}`, and a peer,
# the tools alternating run by run; medians of RUNS runs (5), `--jobs 2`:
#   chain   load -> tilt-shift σ8 -> sepia 0.8 -> save JPEG Q90 of 4 real photos (39.8 MP, the
#           photos of bench/run-imaging.sh); peer: the same chain in pyvips in one process
#   photos  pipelines/photos.yaml with PHOTOS (100) different photos (bench/distinct_photos.py:
#           the three cropped differently; PHOTO_SET=repeated copies the three instead, which lets
#           the store share each one's results between its copies)
#   exec    2,000 `touch` steps of bench/runner_graphs.py's random DAG, each declaring its output
#           (`outputs: [out/nI]`); peer: make -j2 on the same graph
#   tone    the issue's "and still" runs of photos.yaml with PHOTOS photos, each round on a fresh
#           store: a cold run, the same again (unchanged: >= 5x faster), then tone's `intensity`
#           0.8 -> 0.6 (>= 2x faster than the cold run, re-running only tone, save and what needs
#           them); prints which operations started in the changed run
# Columns: median wall time, range, median peak RSS (/usr/bin/time), bytes the run left in its
# store (per photo for the image workloads), and wall and RSS divided by `cache: false`'s.
#   TASKGRAPH_BASELINE=/path/to/taskgraph bench/run-storecost.sh   # adds that build's cache-on rows
#   WORKLOADS="chain" RUNS=3 bench/run-storecost.sh
#   TASKGRAPH=/path/to/taskgraph bench/run-storecost.sh   # that build instead of this tree's
# Needs pyvips (pip install pyvips pyvips-binary) for the chain's peer and, with python3-cryptography,
# for the photos (bench/distinct_photos.py); make for exec's peer.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
RUNS=${RUNS:-5}
PHOTOS=${PHOTOS:-100}
TASKS=${TASKS:-2000}
WORKLOADS=${WORKLOADS:-"chain photos exec tone"}
NAMES="sunset_by_Aitzol_Berasategi Dragonfly_by_Bolly picosdeeuropa_by_Aitzol_Berasategi analogpattern_by_Peter_Nerlich"
work=$root/bench/.work/storecost
imaging=$root/bench/.work/imaging
mkdir -p "$work" "$imaging"
trash=$work/removed
trap 'rm -rf "$trash"' EXIT
# Earlier runs' files are moved aside, not removed, between timed runs (bench/run-cache.sh says why).
aside=0
set_aside() {
  aside=$((aside + 1))
  mkdir -p "$trash/$aside"
  local path
  for path; do [ -e "$path" ] && mv "$path" "$trash/$aside/"; done
  return 0
}

# TASKGRAPH=path: that binary instead of this tree's release build.
if [ -n "${TASKGRAPH:-}" ]; then
  tg=$TASKGRAPH
else
  swift build -c release --product taskgraph >/dev/null
  tg=$(swift build -c release --show-bin-path)/taskgraph
fi
baseline=${TASKGRAPH_BASELINE:-}

if [ ! -d "$imaging/wp/usr/share/backgrounds" ]; then
  (cd "$imaging" && apt-get download lomiri-wallpapers-16.04 >/dev/null && dpkg -x lomiri-wallpapers-16.04_*.deb wp/)
fi
photos=()
for name in $NAMES; do photos+=("$imaging/wp/usr/share/backgrounds/$name.jpg"); done
jpeg_bytes=$(cat "${photos[@]}" | wc -c)
python3 bench/imaging_pyvips.py masks "$imaging" "${photos[@]}"

# chain.yaml and chain-off.yaml: the chain with the cache on and off.
list=$(printf '%s, ' $NAMES)
{
  echo "version: 1"
  echo "vars: {photos: [${list%, }]}"
  echo "operations:"
  echo "  load: {foreach: \"\${photos}\", op: load, path: \"$imaging/wp/usr/share/backgrounds/\${item}.jpg\"}"
  echo "  tilt: {foreach: \"\${photos}\", op: tilt-shift, needs: load, blur_radius: 8}"
  echo "  tone: {foreach: \"\${photos}\", op: sepia, needs: tilt, intensity: 0.8}"
  echo "  save: {foreach: \"\${photos}\", op: save, needs: tone, path: \"\${item}.jpg\", quality: 90}"
} >"$work/chain.yaml"
# off FILE: FILE with `defaults: {cache: false}` after its version line, as FILE-off.yaml
off() { sed '1a defaults: {cache: false}' "$1.yaml" >"$1-off.yaml"; }
off "$work/chain"

# photos.yaml with PHOTOS photos: photo I made from one of the three (PHOTO_SET=distinct, each
# cropped differently) or a copy of it (PHOTO_SET=repeated).
PHOTO_SET=${PHOTO_SET:-distinct}
case $PHOTO_SET in distinct | repeated) ;; *) echo "PHOTO_SET: distinct or repeated, not $PHOTO_SET" >&2; exit 64 ;; esac
rm -rf "$work/photos" && mkdir -p "$work/photos"
cp -r pipelines/photos.yaml pipelines/photos "$work/photos/"
names=(mountains sunset seedling)
plist=""
[ "$PHOTO_SET" = distinct ] && python3 bench/distinct_photos.py pipelines/photos "$PHOTOS" "$work/photos/photos"
for i in $(seq "$PHOTOS"); do
  [ "$PHOTO_SET" = distinct ] || cp "$work/photos/photos/${names[i % 3]}.jpg.enc" "$work/photos/photos/p$i.jpg.enc"
  plist+="${plist:+, }p$i"
done
sed "s/^  photos: \[.*\]/  photos: [$plist]/" pipelines/photos.yaml >"$work/photos/many.yaml"
sed '/^defaults:/a \ \ cache: false' "$work/photos/many.yaml" >"$work/photos/many-off.yaml"
sed 's/^    intensity: 0.8$/    intensity: 0.6/' "$work/photos/many.yaml" >"$work/photos/many-tone.yaml"
cmp -s "$work/photos/many.yaml" "$work/photos/many-tone.yaml" && { echo "photos.yaml has no 'intensity: 0.8' to change" >&2; exit 1; }
# A photo's JPEG: the mean size of the encrypted photos less the nonce and tag (28 bytes).
photos_jpeg=$(for i in $(seq "$PHOTOS"); do stat -c %s "$work/photos/photos/p$i.jpg.enc"; done |
  awk '{ total += $1 - 28 } END { print total / NR }')

# The exec graph, each step declaring its output.
rm -rf "$work/graph"
python3 bench/runner_graphs.py --shape random --tasks "$TASKS" --seed 1 "$work/graph" >/dev/null
awk '{ print } /^    command: \[touch, out\/n[0-9]+\]$/ { match($0, /out\/n[0-9]+/); print "    outputs: [" substr($0, RSTART, RLENGTH) "]" }' \
  "$work/graph/taskgraph/dag.yaml" >"$work/graph/taskgraph/exec.yaml"
off "$work/graph/taskgraph/exec"

# sample NAME DIR CMD...: runs CMD in DIR, adds "seconds kib" to NAME's samples.
sample() {
  local name=$1 dir=$2; shift 2
  (cd "$dir" && /usr/bin/time -f "%e %M" -o "$work/time.txt" "$@") >"$work/last.log" 2>&1 || {
    echo "failed: $*" >&2; tail -n 5 "$work/last.log" >&2; exit 1; }
  cat "$work/time.txt" >>"$work/$name.samples"
}
# taskgraph NAME BIN PIPELINE DIR: one cold run in DIR with a fresh store;
# the store's bytes go to NAME.bytes
taskgraph() {
  local name=$1 bin=$2 pipeline=$3 dir=$4
  set_aside "$dir/out" "$dir/store"
  mkdir -p "$dir/out"
  sample "$name" "$dir" "$bin" run "$pipeline" --jobs 2 --output "$dir/out" --cache-dir "$dir/store" --no-progress
  du -sb "$dir/store" 2>/dev/null | cut -f1 >>"$work/$name.bytes" || echo 0 >>"$work/$name.bytes"
}
# again NAME BIN PIPELINE DIR: a run in DIR with --explain on the store the last `taskgraph`
# left; the operations that started, and those recomputed for them (left out of the store),
# go to NAME.started
again() {
  local name=$1 bin=$2 pipeline=$3 dir=$4
  sample "$name" "$dir" "$bin" run "$pipeline" --jobs 2 --output "$dir/out" --cache-dir "$dir/store" --no-progress --explain
  { sed -n 's/^\[ *[0-9.]*s\] start  *\([^ []*\).*/\1/p' "$work/last.log"
    sed -n 's/^\([^ []*\)[^ ]*: run: recomputed.*/\1 (recomputed)/p' "$work/last.log"; } | sort | uniq -c |
    awk '{ n = $1; $1 = ""; printf "%s%s %s", sep, substr($0, 2), n; sep = ", " } END { print "" }' >>"$work/$name.started"
}
median() { sort -n | awk '{ a[NR] = $1 } END { if (NR) print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }'; }
# row LABEL NAME BASE JPEG: median wall, range, RSS, store bytes (÷ JPEG, the bytes of every
# photo's JPEG: the store's bytes per photo over a photo's), ratios to BASE
row() {
  local s=$work/$2.samples b=$work/$3.samples
  [ -s "$s" ] || return 0
  awk -v l="$1" -v w="$(cut -d' ' -f1 "$s" | median)" -v lo="$(cut -d' ' -f1 "$s" | sort -n | head -n1)" \
    -v hi="$(cut -d' ' -f1 "$s" | sort -n | tail -n1)" -v m="$(cut -d' ' -f2 "$s" | median)" \
    -v bytes="$( [ -s "$work/$2.bytes" ] && median <"$work/$2.bytes" || echo -)" -v per="$4" \
    -v bw="$(cut -d' ' -f1 "$b" | median)" -v bm="$(cut -d' ' -f2 "$b" | median)" 'BEGIN {
      store = bytes == "-" ? "-" : sprintf("%.1f MB", bytes / 1e6)
      if (bytes != "-" && per != "") store = store sprintf(" (%.2f× the JPEG per photo)", bytes / per)
      printf "| %s | %.2f s | %.2f-%.2f s | %.0f MiB | %s | %.2f× | %.2f× |\n", l, w, lo, hi, m / 1024, store, w / bw, m / bm }'
}

echo "machine: $(nproc) cores; load average at start $(cut -d' ' -f1-3 /proc/loadavg); $(date -u '+%Y-%m-%d %H:%M') UTC; commit $(git rev-parse --short HEAD)"
for workload in $WORKLOADS; do
  rm -f "$work"/*.samples "$work"/*.bytes "$work"/*.started
  for _ in $(seq "$RUNS"); do
    case $workload in
      chain)
        taskgraph on "$tg" "$work/chain.yaml" "$work/run"
        [ -n "$baseline" ] && taskgraph baseline "$baseline" "$work/chain.yaml" "$work/run"
        taskgraph off "$tg" "$work/chain-off.yaml" "$work/run"
        sample peer "$work" python3 "$root/bench/imaging_pyvips.py" chain "$work/run/out" "${photos[@]}" ;;
      photos)
        taskgraph on "$tg" "$work/photos/many.yaml" "$work/photos"
        [ -n "$baseline" ] && taskgraph baseline "$baseline" "$work/photos/many.yaml" "$work/photos"
        taskgraph off "$tg" "$work/photos/many-off.yaml" "$work/photos" ;;
      exec)
        taskgraph on "$tg" "$work/graph/taskgraph/exec.yaml" "$work/graph/taskgraph"
        [ -n "$baseline" ] && taskgraph baseline "$baseline" "$work/graph/taskgraph/exec.yaml" "$work/graph/taskgraph"
        taskgraph off "$tg" "$work/graph/taskgraph/exec-off.yaml" "$work/graph/taskgraph"
        set_aside "$work/graph/make/out" && mkdir -p "$work/graph/make/out"
        sample peer "$work/graph/make" make -s -j2 ;;
      tone)
        taskgraph on "$tg" "$work/photos/many.yaml" "$work/photos"
        again same "$tg" "$work/photos/many.yaml" "$work/photos"
        again changed "$tg" "$work/photos/many-tone.yaml" "$work/photos"
        if [ -n "$baseline" ]; then
          taskgraph baseline "$baseline" "$work/photos/many.yaml" "$work/photos"
          again baseline-same "$baseline" "$work/photos/many.yaml" "$work/photos"
          again baseline-changed "$baseline" "$work/photos/many-tone.yaml" "$work/photos"
        fi ;;
    esac
  done
  if [ "$workload" = tone ]; then
    echo
    echo "### photos.yaml, $PHOTOS photos: cold, unchanged, \`intensity\` changed (median of $RUNS)"
    echo
    echo "| build | run | wall | range | cold ÷ this run | operations started (most frequent list) |"
    echo "|---|---|---|---|---|---|"
    for build in this baseline; do
      prefix="" cold=on label="this"
      [ $build = baseline ] && { prefix="baseline-" cold=baseline label="baseline"; }
      [ -s "$work/$cold.samples" ] || continue
      for run in cold same changed; do
        name=$prefix$run; [ $run = cold ] && name=$cold
        started=-
        [ -s "$work/$name.started" ] && started=$(sort "$work/$name.started" | uniq -c | sort -rn | sed -n '1s/^ *[0-9]* //p')
        awk -v b="$label" -v r="$run" -v w="$(cut -d' ' -f1 "$work/$name.samples" | median)" \
          -v lo="$(cut -d' ' -f1 "$work/$name.samples" | sort -n | head -n1)" \
          -v hi="$(cut -d' ' -f1 "$work/$name.samples" | sort -n | tail -n1)" \
          -v c="$(cut -d' ' -f1 "$work/$cold.samples" | median)" -v s="${started:--}" 'BEGIN {
            printf "| %s | %s | %.2f s | %.2f-%.2f s | %.2f× | %s |\n", b, r, w, lo, hi, c / w, s }'
      done
    done
    continue
  fi
  case $workload in
    chain) per=$jpeg_bytes; title="4-photo chain"; peer="pyvips, one process" ;;
    photos) per=$(awk -v a="$photos_jpeg" -v n="$PHOTOS" 'BEGIN { print a * n }'); title="photos.yaml, $PHOTOS photos"; peer="" ;;
    exec) per=""; title="$TASKS exec steps declaring outputs"; peer="make -j2" ;;
  esac
  echo
  echo "### $title (median of $RUNS)"
  echo
  echo "| run | wall | range | peak RSS | store | ÷ cache: false, wall | ÷ cache: false, RSS |"
  echo "|---|---|---|---|---|---|---|"
  row "cache on (default)" on off "$per"
  row "cache on, baseline build" baseline off "$per"
  row "\`cache: false\`" off off ""
  [ -n "$peer" ] && row "$peer" peer off ""
done
echo
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
