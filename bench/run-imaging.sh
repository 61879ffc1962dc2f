#!/usr/bin/env bash
# Imaging benchmark: taskgraph vs libvips in-process (pyvips), the vips CLI and ImageMagick, on
# the same real photos (fetched from Debian's lomiri-wallpapers-16.04, not committed), same
# thread count, all reading JPEG and writing JPEG quality 90:
#   (a) sepia 0.8   (b) tilt-shift σ 8   (c) decode -> tilt-shift -> sepia -> encode
#   floor: taskgraph decode + encode only (libjpeg-turbo, no filter)
# Every taskgraph pipeline sets `cache: false` and runs with a cache directory of its own, so
# each run decodes, filters and encodes (a run reusing the store's results would measure nothing).
# Prints a Markdown table: best wall time of RUNS runs of every tool, its CPU time (user + system:
# less inflated than wall time when other work shares the cores), time per megapixel, peak RSS, and the ratio to taskgraph; and the load average before and after (other work on the
# machine inflates wall times).
# Needs: apt-get install -y libvips-tools imagemagick; pip install pyvips pyvips-binary.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
PEERS=${PEERS:-"pyvips vips magick"}  # a subset of these, e.g. PEERS=pyvips for quick comparisons
THREADS=${THREADS:-2}
NAMES=${NAMES:-"sunset_by_Aitzol_Berasategi Dragonfly_by_Bolly picosdeeuropa_by_Aitzol_Berasategi analogpattern_by_Peter_Nerlich"}
work=$PWD/bench/.work/imaging
mkdir -p "$work/out"
export VIPS_CONCURRENCY=$THREADS MAGICK_THREAD_LIMIT=$THREADS OMP_NUM_THREADS=$THREADS

if [ ! -d "$work/wp/usr/share/backgrounds" ]; then
  (cd "$work" && apt-get download lomiri-wallpapers-16.04 >/dev/null && dpkg -x lomiri-wallpapers-16.04_*.deb wp/)
fi
photos=()
for name in $NAMES; do photos+=("$work/wp/usr/share/backgrounds/$name.jpg"); done
megapixels=$(python3 -c "
import sys; from PIL import Image
print(sum(Image.open(p).size[0] * Image.open(p).size[1] for p in sys.argv[1:]) / 1e6)" "${photos[@]}")

# TASKGRAPH=path: that binary instead of this tree's release build.
if [[ -n ${TASKGRAPH:-} ]]; then
  bin=$TASKGRAPH
else
  swift build -c release --product taskgraph >/dev/null
  bin=$(swift build -c release --show-bin-path)/taskgraph
fi
python3 bench/imaging_pyvips.py masks "$work" "${photos[@]}"
M="0.5144 0.6152 0.1512 0.2792 0.7488 0.1344 0.2176 0.4272 0.3048"
printf '3 3\n0.5144 0.6152 0.1512\n0.2792 0.7488 0.1344\n0.2176 0.4272 0.3048\n' >"$work/sepia08.mat"

# pipeline TASK: a taskgraph pipeline doing TASK on every photo, written to $work/TASK.yaml
pipeline() {
  local list
  list=$(printf '%s, ' $NAMES)
  {
    echo "version: 1"
    echo "defaults: {cache: false}"
    echo "vars: {photos: [${list%, }]}"
    echo "operations:"
    echo "  load: {foreach: \"\${photos}\", op: load, path: \"wp/usr/share/backgrounds/\${item}.jpg\"}"
    case $1 in
      floor) echo "  step: {foreach: \"\${photos}\", op: resize, needs: load, max_side: 100000}" ;;
      sepia) echo "  step: {foreach: \"\${photos}\", op: sepia, needs: load, intensity: 0.8}" ;;
      tilt) echo "  step: {foreach: \"\${photos}\", op: tilt-shift, needs: load, blur_radius: 8}" ;;
      chain)
        echo "  tilt: {foreach: \"\${photos}\", op: tilt-shift, needs: load, blur_radius: 8}"
        echo "  step: {foreach: \"\${photos}\", op: sepia, needs: tilt, intensity: 0.8}" ;;
    esac
    echo "  save: {foreach: \"\${photos}\", op: save, needs: step, path: \"\${item}.jpg\", quality: 90}"
  } >"$work/$1.yaml"
  echo "$work/$1.yaml"
}

# vips_cli TASK PHOTO: the vips command line, intermediate .v files between steps
vips_cli() {
  local name; name=$(basename "$2" .jpg)
  case $1 in
    sepia) vips recomb "$2" "$work/out/$name.jpg[Q=90]" "$work/sepia08.mat" ;;
    tilt)
      vips gaussblur "$2" "$work/b.v" 8 --min-ampl 0.01
      vips ifthenelse "$work/mask-$name.v" "$work/b.v" "$2" "$work/out/$name.jpg[Q=90]" --blend ;;
    chain)
      vips gaussblur "$2" "$work/b.v" 8 --min-ampl 0.01
      vips ifthenelse "$work/mask-$name.v" "$work/b.v" "$2" "$work/t.v" --blend
      vips recomb "$work/t.v" "$work/out/$name.jpg[Q=90]" "$work/sepia08.mat" ;;
  esac
}

# imagemagick TASK PHOTO
imagemagick() {
  local name; name=$(basename "$2" .jpg)
  local im=(convert-im6.q16 -limit memory 4GiB -limit map 8GiB)
  case $1 in
    sepia) "${im[@]}" "$2" -color-matrix "$M" -quality 90 "$work/out/$name.jpg" ;;
    tilt) "${im[@]}" "$2" \( +clone -blur 0x8 \) "$work/mask-$name.png" -composite -quality 90 "$work/out/$name.jpg" ;;
    chain) "${im[@]}" "$2" \( +clone -blur 0x8 \) "$work/mask-$name.png" -composite -color-matrix "$M" -quality 90 "$work/out/$name.jpg" ;;
  esac
}
export -f vips_cli imagemagick
export work M

# best RUNS CMD...: "seconds peak_kib cpu_seconds" of the fastest of RUNS runs
best() {
  local runs=$1; shift
  for _ in $(seq "$runs"); do
    /usr/bin/time -f "%e %M %U %S" -o "$work/time.txt" "$@" >/dev/null 2>"$work/err.txt" || { cat "$work/err.txt" >&2; exit 1; }
    awk '{ print $1, $2, $3 + $4 }' "$work/time.txt"
  done | sort -n | head -n 1
}

row() { # row LABEL TOOL SECONDS KIB CPU_SECONDS REFERENCE_SECONDS
  awk -v l="$1" -v t="$2" -v s="$3" -v k="$4" -v c="$5" -v r="$6" -v mp="$megapixels" 'BEGIN {
    printf "| %s | %s | %.2f s | %.2f s | %.1f ms | %.0f MiB | %.2f× |\n", l, t, s, c, 1000 * s / mp, k / 1024, s / r }'
}

echo "machine: $(nproc) cores; $THREADS threads per tool; photos: $NAMES ($megapixels MP)"
echo "load average at start: $(cut -d ' ' -f 1-3 /proc/loadavg)"
echo
echo "| task | tool | wall time | CPU time | per MP | peak RSS | time vs taskgraph |"
echo "|---|---|---|---|---|---|---|"
tg=("$bin" run --jobs "$THREADS" --output "$work/out" --cache-dir "$work/cache" --no-progress)
read -r floor floor_kib floor_cpu < <(best "$RUNS" "${tg[@]}" "$(pipeline floor)")
row "decode+encode" taskgraph "$floor" "$floor_kib" "$floor_cpu" "$floor"
for task in sepia tilt chain; do
  file=$(pipeline "$task")
  read -r tgs tg_kib tg_cpu < <(best "$RUNS" "${tg[@]}" "$file")
  row "$task" taskgraph "$tgs" "$tg_kib" "$tg_cpu" "$tgs"
  if [[ " $PEERS " == *" pyvips "* ]]; then
    read -r s k c < <(best "$RUNS" python3 bench/imaging_pyvips.py "$task" "$work/out" "${photos[@]}")
    row "$task" "pyvips (in-process)" "$s" "$k" "$c" "$tgs"
  fi
  if [[ " $PEERS " == *" vips "* ]]; then
    read -r s k c < <(best "$RUNS" bash -c 'for p in "$@"; do vips_cli '"$task"' "$p"; done' _ "${photos[@]}")
    row "$task" "vips CLI" "$s" "$k" "$c" "$tgs"
  fi
  if [[ " $PEERS " == *" magick "* ]]; then
    read -r s k c < <(best "$RUNS" bash -c 'for p in "$@"; do imagemagick '"$task"' "$p"; done' _ "${photos[@]}")
    row "$task" "ImageMagick" "$s" "$k" "$c" "$tgs"
  fi
done
echo
echo "chain vs floor (taskgraph decode+encode only): $(awk -v c="$tgs" -v f="$floor" 'BEGIN { printf "%.2f×", c / f }') wall, $(awk -v c="$tg_cpu" -v f="$floor_cpu" 'BEGIN { printf "%.2f×", c / f }') CPU"
echo "load average at end: $(cut -d ' ' -f 1-3 /proc/loadavg)"
