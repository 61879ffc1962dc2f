#!/usr/bin/env bash
# Remote cache benchmark (issue #33): taskgraph against a real nginx (WebDAV PUT) on 127.0.0.1,
# "machines" being checkouts with their own local stores and HOMEs:
#   1. pipelines/photos.yaml: a cold run without a remote cache, a cold run uploading to it
#      (the upload's overhead), and machine B's run (empty store, another checkout path and
#      HOME: every operation a remote hit), with the ratio cold / machine B;
#   2. a DAG of BENCH_NODES exec steps (bench/random_dag.py, seed 1), -j JOBS (default 8: a
#      hit waits on the network, not a core), with --events (the full
#      path, not the nothing-changed shortcut): machine A's local all-hit run against machine
#      B's all-remote-hit run (its outputs restored from the server).
# Times are wall-clock medians of RUNS runs (default 3). Tables go to standard output.
#   BENCH_NODES=1000 bench/run-remote.sh          # quick check
#   TASKGRAPH=path/to/taskgraph bench/run-remote.sh   # that binary instead of a release build
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
RUNS=${RUNS:-3}
NODES=${BENCH_NODES:-10000}
JOBS=${JOBS:-8}
work=$root/bench/.work/remote
# Checkouts and stores replaced between timed runs (and a last bench's files) are moved aside,
# and removed when the bench ends: a run right after `rm -rf` of 10,000 files pays for that
# removal in every file it creates (ext4 without a journal, bench/run-cache.sh says why).
trash=$root/bench/.work/remote-removed
rm -rf "$trash"
mkdir -p "$trash/0"
[[ -e $work ]] && mv "$work" "$trash/0/"
mkdir -p "$work"
source "$root/bench/set-aside.sh"
if [[ -n ${TASKGRAPH:-} ]]; then
  tg=$TASKGRAPH
else
  swift build -c release --product taskgraph >/dev/null
  tg=$(swift build -c release --show-bin-path)/taskgraph
fi
command -v nginx >/dev/null || { echo "nginx is missing: scripts/setup.sh installs nginx-light" >&2; exit 1; }

# --- the server --------------------------------------------------------------------------------
server=$work/nginx
mkdir -p "$server"/{data,logs,tmp}
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat >"$server/nginx.conf" <<CONF
daemon off;
user $(id -un);
worker_processes 2;
pid $server/nginx.pid;
error_log $server/logs/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $server/tmp/body;
  proxy_temp_path $server/tmp/proxy;
  fastcgi_temp_path $server/tmp/fastcgi;
  uwsgi_temp_path $server/tmp/uwsgi;
  scgi_temp_path $server/tmp/scgi;
  client_max_body_size 0;
  keepalive_requests 100000;
  server {
    listen 127.0.0.1:$port;
    root $server/data;
    location / { dav_methods PUT; create_full_put_path on; }
  }
}
CONF
nginx -p "$server" -c "$server/nginx.conf" 2>/dev/null &
nginx_pid=$!
trap 'kill $nginx_pid 2>/dev/null; wait $nginx_pid 2>/dev/null || true; rm -rf "$trash"' EXIT
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.05; done
url=http://127.0.0.1:$port/cache

# seconds COMMAND...: runs COMMAND (its output discarded), prints its wall-clock seconds.
seconds() {
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; exit 1; }
  end=$(date +%s.%N)
  echo "$end - $start" | bc
}
median() { printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
ratio() { echo "scale=2; $1 / $2" | bc; }
# checkout DIR SOURCE...: a fresh copy of SOURCE... in DIR, with its own home.
checkout() {
  local directory=$1; shift
  set_aside "$directory"; mkdir -p "$directory/home"
  cp -r "$@" "$directory/"
}
# machine DIR ARGS...: taskgraph ARGS in DIR, with the store and HOME of that "machine".
machine() {
  local directory=$1; shift
  (cd "$directory" && HOME=$directory/home TASKGRAPH_CACHE_DIR=$directory/store "$tg" "$@")
}

# --- 1. photos.yaml ----------------------------------------------------------------------------
echo "photos.yaml: cold, cold + upload, machine B ($RUNS runs each)" >&2
cold=(); upload=(); warm=()
for run in $(seq "$RUNS"); do
  set_aside "$server/data/cache"
  checkout "$work/photos-cold" pipelines/photos.yaml pipelines/photos
  cold+=("$(seconds machine "$work/photos-cold" run photos.yaml --no-progress)")
  checkout "$work/photos-a" pipelines/photos.yaml pipelines/photos
  upload+=("$(seconds machine "$work/photos-a" run photos.yaml --no-progress --remote-cache "$url")")
  checkout "$work/photos-b/another/path" pipelines/photos.yaml pipelines/photos
  warm+=("$(seconds machine "$work/photos-b/another/path" run photos.yaml --no-progress --remote-cache "$url")")
done
c=$(median "${cold[@]}"); u=$(median "${upload[@]}"); w=$(median "${warm[@]}")
echo
echo "| photos.yaml (3 photos) | seconds | ratio |"
echo "|---|---|---|"
echo "| cold, no remote cache | $c | 1.00 |"
echo "| cold, uploading to the remote cache | $u | $(ratio "$u" "$c") |"
echo "| machine B: every operation a remote hit | $w | cold / B = $(ratio "$c" "$w")× |"

# --- 2. a DAG of exec steps --------------------------------------------------------------------
echo "random DAG of $NODES exec steps" >&2
dag=$work/dag-source
python3 bench/random_dag.py --nodes "$NODES" --seed 1 "$dag" >/dev/null
set_aside "$server/data/cache"
checkout "$work/dag-a" "$dag/taskgraph/."
machine "$work/dag-a" run dag.yaml --no-progress -j "$JOBS" --remote-cache "$url" >/dev/null 2>&1
local_hits=(); remote_hits=()
for run in $(seq "$RUNS"); do
  local_hits+=("$(seconds machine "$work/dag-a" run dag.yaml --no-progress -j "$JOBS" --events "$work/events-a.jsonl")")
  checkout "$work/dag-b/other" "$dag/taskgraph/."
  set_aside "$work/dag-b/other/out"
  remote_hits+=("$(seconds machine "$work/dag-b/other" run dag.yaml --no-progress -j "$JOBS" --events "$work/events-b.jsonl" --remote-cache "$url")")
done
l=$(median "${local_hits[@]}"); r=$(median "${remote_hits[@]}")
echo
echo "| $NODES exec steps, all hits, --events | seconds | ratio |"
echo "|---|---|---|"
echo "| machine A: local store | $l | 1.00 |"
echo "| machine B: remote cache (outputs restored from it) | $r | $(ratio "$r" "$l") |"
