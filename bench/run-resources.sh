#!/usr/bin/env bash
# Resource bounds of `taskgraph run` (release build), printed as Markdown:
#   1. peak RSS for N = 10 and N = 200 real photos (load -> tilt-shift -> sepia -> save) with
#      --jobs 2, and for pipelines/photos.yaml with N encrypted photos;
#   2. peak RSS of validating and running a 100,000-operation pipeline;
#   3. the most open file descriptors and threads during 1,000 downloads (pool net: 8);
#   4. a full and a read-only output directory (tmpfs; needs root, skipped otherwise).
# Photos: Debian's lomiri-wallpapers-16.04 as in run-imaging.sh (6-13 MP), fetched once.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=$root/bench/.work/resources
rm -rf "$work" && mkdir -p "$work"
swift build -c release --product taskgraph >/dev/null
swift build -c release --product engine-bench >/dev/null
bin=$(swift build -c release --show-bin-path)
tg=$bin/taskgraph

wallpapers=$root/bench/.work/imaging/wp/usr/share/backgrounds
if [ ! -d "$wallpapers" ]; then
  mkdir -p "$root/bench/.work/imaging"
  (cd "$root/bench/.work/imaging" && apt-get download lomiri-wallpapers-16.04 >/dev/null && dpkg -x lomiri-wallpapers-16.04_*.deb wp/)
fi
NAMES=(sunset_by_Aitzol_Berasategi Dragonfly_by_Bolly picosdeeuropa_by_Aitzol_Berasategi analogpattern_by_Peter_Nerlich)

# peak_mib CMD...: runs CMD, fails on a non-zero exit, prints its peak RSS in MiB.
peak_mib() {
  /usr/bin/time -f "%M" -o "$work/time.txt" "$@" >"$work/last.log" 2>&1 || { cat "$work/last.log" >&2; return 1; }
  awk '{printf "%.0f", $1 / 1024}' "$work/time.txt"
}

# items N: "p1, p2, ..., pN"
items() { seq -s ', ' -f 'p%g' "$1"; }

echo "machine: $(nproc) cores; $(date -u +%Y-%m-%d)"
echo
echo "### Memory against the number of photos (--jobs 2)"
echo
echo "| pipeline | N = 10 | N = 200 |"
echo "|---|---|---|"
for n in 10 200; do
  mkdir -p "$work/photos-$n"
  for i in $(seq "$n"); do
    name=${NAMES[$(( (i - 1) % 4 ))]}
    ln -s "$wallpapers/$name.jpg" "$work/photos-$n/p$i.jpg"
  done
  cat >"$work/filters-$n.yaml" <<YAML
version: 1
vars: {photos: [$(items "$n")]}
operations:
  load: {foreach: "\${photos}", op: load, path: "photos-$n/\${item}.jpg"}
  tilt: {foreach: "\${photos}", op: tilt-shift, needs: load, blur_radius: 8}
  tone: {foreach: "\${photos}", op: sepia, needs: tilt, intensity: 0.8}
  save: {foreach: "\${photos}", op: save, needs: tone, path: "\${item}.jpg"}
YAML
  filters[$n]=$(peak_mib "$tg" run "$work/filters-$n.yaml" --jobs 2 --no-progress --output "$work/out-$n")
  rm -rf "$work/out-$n"
done
largest=$(python3 -c "
import sys; from PIL import Image
print(max(Image.open(p).size[0] * Image.open(p).size[1] for p in sys.argv[1:]))" "$work"/photos-10/p[1-4].jpg 2>/dev/null || echo 0)

# The download server for part 3.
source bench/test-server.sh
start_test_server "$work"
# photos.yaml: N names cycling through the three committed encrypted photos (read as files).
demo=(mountains sunset seedling)
mkdir -p "$work/encrypted"
for i in $(seq 200); do ln -s "$root/pipelines/photos/${demo[$(( (i - 1) % 3 ))]}.jpg.enc" "$work/encrypted/p$i.jpg.enc"; done
for n in 10 200; do
  photos[$n]=$(peak_mib "$tg" run pipelines/photos.yaml --jobs 2 --no-progress --output "$work/photos-out-$n" \
    --var "source=$work/encrypted" --var "photos=$(items "$n" | tr -d ' ')")
  rm -rf "$work/photos-out-$n"
done
echo "| load → tilt-shift σ 8 → sepia → save, real photos of 6-13 MP | ${filters[10]} MiB | ${filters[200]} MiB |"
echo "| pipelines/photos.yaml (decrypt, filters, thumbnails, contact sheet) | ${photos[10]} MiB | ${photos[200]} MiB |"
echo
awk -v p="$largest" 'BEGIN { if (p > 0) printf "Largest decoded photo: %.1f MP = %.0f MiB as 8-bit RGB.\n\n", p / 1e6, p * 3 / 1048576 }'

echo "### A 100,000-operation pipeline"
echo
"$bin/engine-bench" yaml "$work/big.yaml" 100000
"$bin/engine-bench" yaml "$work/groups.yaml" 100000 groups
echo "| command | peak RSS |"
echo "|---|---|"
echo "| taskgraph validate (mixed exec/group operations, 300,000 needs) | $(peak_mib "$tg" validate "$work/big.yaml") MiB |"
echo "| taskgraph run (100,000 group operations) | $(peak_mib "$tg" run "$work/groups.yaml" --no-progress --output "$work/groups-out") MiB |"
echo

echo "### File descriptors and threads during 1,000 downloads (pool net: 8)"
echo
cat >"$work/downloads.yaml" <<YAML
version: 1
vars: {items: [$(items 1000)]}
pools: {net: 8}
operations:
  fetch: {foreach: "\${items}", op: download, url: "http://127.0.0.1:$port/bytes/200000", pool: net}
  keep: {foreach: "\${items}", op: save, needs: fetch, path: "\${item}.bin"}
YAML
python3 - "$tg" "$work" <<'PY'
import os, subprocess, sys, time
tg, work = sys.argv[1], sys.argv[2]
def threads(pid):
    with open(f"/proc/{pid}/status") as f:
        return int(next(l for l in f if l.startswith("Threads:")).split()[1])
process = subprocess.Popen([tg, "run", f"{work}/downloads.yaml", "--no-progress", "--output", f"{work}/downloads-out"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
fds = thread_peak = samples = 0
while process.poll() is None:
    try:
        fds = max(fds, len(os.listdir(f"/proc/{process.pid}/fd")))
        thread_peak = max(thread_peak, threads(process.pid))
        samples += 1
    except (FileNotFoundError, ProcessLookupError, StopIteration):
        pass
    time.sleep(0.005)
saved = len(os.listdir(f"{work}/downloads-out"))
print("| exit | files saved | most open fds | most threads | samples |")
print("|---|---|---|---|---|")
print(f"| {process.returncode} | {saved} | {fds} | {thread_peak} | {samples} |")
PY
echo

echo "### Full and read-only output directories"
echo
if [ "$(id -u)" != 0 ] || ! mkdir -p "$work/tiny" || ! mount -t tmpfs -o size=1m tmpfs "$work/tiny" 2>/dev/null; then
  echo "skipped: needs root and tmpfs mounts"
  exit 0
fi
trap 'umount "$work/tiny" 2>/dev/null || true; kill $server 2>/dev/null || true' EXIT
head -c 300000 /dev/urandom >"$work/small.bin"
head -c 3000000 /dev/urandom >"$work/big.bin"
cat >"$work/disk.yaml" <<YAML
version: 1
operations:
  small: {op: load, path: small.bin}
  keep-small: {op: save, needs: small, path: small.bin}
  big: {op: load, path: big.bin}
  keep-big: {op: save, needs: [big, keep-small], path: big.bin}
YAML
status=0
"$tg" run "$work/disk.yaml" --no-progress --output "$work/tiny" >"$work/full.log" 2>&1 || status=$?
echo "Full (1 MiB tmpfs; a 300 kB file fits, then a 3 MB one does not): exit $status; the failure line:"
echo
echo '```'
grep -E "keep-big +failed" "$work/full.log" || tail -n 3 "$work/full.log"
echo '```'
echo
echo "Left in the directory: $(cd "$work/tiny" && ls -A | tr '\n' ' ')(the earlier output $(cmp -s "$work/tiny/small.bin" "$work/small.bin" && echo "intact" || echo "DAMAGED"))."
echo
mount -o remount,ro "$work/tiny"
status=0
"$tg" run "$work/disk.yaml" --no-progress --output "$work/tiny" >"$work/ro.log" 2>&1 || status=$?
echo "Read-only (the same directory remounted read-only): exit $status; the failure line:"
echo
echo '```'
grep -E "^[^ []+ +failed" "$work/ro.log"
echo '```'
echo
echo "Left in the directory: $(cd "$work/tiny" && ls -A | tr '\n' ' ')(the earlier output $(cmp -s "$work/tiny/small.bin" "$work/small.bin" && echo "intact" || echo "DAMAGED"))."
