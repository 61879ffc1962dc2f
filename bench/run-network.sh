#!/usr/bin/env bash
# Network and crypto benchmark.
# 1. FILES files of SIZE_KIB KiB served by one local server (python3 -m http.server on 127.0.0.1),
#    fetched and written to disk by `taskgraph run` (download -> save, pools: {net: 8}),
#    `curl --parallel --parallel-max 8` and `xargs -P8 curl`, in the same run, median of RUNS.
# 2. decrypt throughput through the engine (crypto-bench, 16 MiB and 256 MiB inputs) vs
#    `openssl speed -evp aes-256-gcm` (16 KiB blocks, in cache).
# Prints Markdown.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
FILES=${FILES:-200}
SIZE_KIB=${SIZE_KIB:-512}
PARALLEL=${PARALLEL:-8}
work=bench/.work/network
rm -rf "$work" && mkdir -p "$work/files"

swift build -c release --product taskgraph >/dev/null
swift build -c release --product crypto-bench >/dev/null
bin=$(swift build -c release --show-bin-path)

names=()
for i in $(seq -w 1 "$FILES"); do
  names+=("f$i")
  head -c $((SIZE_KIB * 1024)) /dev/urandom >"$work/files/f$i.bin"
done

# The server exits when this script does (its stdin is a pipe from a process we end on exit).
port_file="$work/port"
python3 - "$work/files" >"$port_file" 2>/dev/null <<'PY' &
import functools, http.server, sys, threading, os
handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[1])
handler.log_message = lambda *args: None
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
print(server.server_address[1], flush=True)
threading.Timer(1800, lambda: os._exit(0)).start()
server.serve_forever()
PY
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 100); do [[ -s $port_file ]] && break; sleep 0.1; done
base="http://127.0.0.1:$(cat "$port_file")"

{
  echo "version: 1"
  echo "pools: {net: $PARALLEL}"
  echo "vars: {files: [$(IFS=,; echo "${names[*]}")]}"
  echo "operations:"
  echo "  fetch: {foreach: \"\${files}\", op: download, pool: net, url: \"$base/\${item}.bin\"}"
  echo "  keep: {foreach: \"\${files}\", op: save, needs: fetch, path: \"\${item}.bin\"}"
} >"$work/fetch.yaml"
: >"$work/curl.cfg"
for name in "${names[@]}"; do
  printf 'url = "%s/%s.bin"\noutput = "%s/out/%s.bin"\n' "$base" "$name" "$work" "$name" >>"$work/curl.cfg"
done

# seconds CMD... -> wall seconds of CMD, with a fresh output directory
seconds() {
  rm -rf "$work/out" && mkdir -p "$work/out"
  local start end
  start=$(date +%s%N)
  "$@" >/dev/null 2>&1
  end=$(date +%s%N)
  [[ $(ls "$work/out" | wc -l) -eq $FILES ]] || { echo "incomplete output from: $*" >&2; exit 1; }
  awk -v ns=$((end - start)) 'BEGIN {printf "%.3f\n", ns / 1e9}'
}
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
xargs_curl() { printf '%s\n' "${names[@]}" | xargs -P"$PARALLEL" -I{} curl -sf -o "$work/out/{}.bin" "$base/{}.bin"; }

: >"$work/taskgraph.txt"; : >"$work/curl.txt"; : >"$work/xargs.txt"
for _ in $(seq "$RUNS"); do
  seconds "$bin/taskgraph" run "$work/fetch.yaml" --output "$work/out" --no-progress >>"$work/taskgraph.txt"
  seconds curl -sf --parallel --parallel-max "$PARALLEL" -K "$work/curl.cfg" >>"$work/curl.txt"
  seconds xargs_curl >>"$work/xargs.txt"
done
tg=$(median <"$work/taskgraph.txt"); cu=$(median <"$work/curl.txt"); xa=$(median <"$work/xargs.txt")

echo "machine: $(nproc) cores; $FILES files of $SIZE_KIB KiB from python3 http.server on 127.0.0.1; $PARALLEL at once; median of $RUNS runs"
echo
echo "| client | wall time | vs curl --parallel |"
echo "|---|---|---|"
for row in "taskgraph (download -> save, pools: {net: $PARALLEL}) $tg" "curl --parallel --parallel-max $PARALLEL $cu" "xargs -P$PARALLEL curl $xa"; do
  label=${row% *}; value=${row##* }
  echo "| $label | ${value} s | $(awk -v a="$value" -v b="$cu" 'BEGIN {printf "%.2fx", a / b}') |"
done
echo
"$bin/crypto-bench" 16 10 | sed 's/^/    /'
"$bin/crypto-bench" 256 3 | sed 's/^/    /'
openssl speed -evp aes-256-gcm -seconds 3 2>/dev/null | awk '/^AES-256-GCM/ || /^aes-256-gcm/ {printf "    openssl speed -evp aes-256-gcm, 16384-byte blocks: %d MB/s\n", $NF / 1000}'
