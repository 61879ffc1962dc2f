#!/usr/bin/env bash
# The HTML report of a 100,000-operation run: how long `taskgraph report` takes to write it, how
# large it is, and how long headless Chromium takes to load and draw it (the page's own
# `data-load-ms`, navigation start to everything drawn, and the wall time of `chromium --dump-dom`).
# Usage: bench/run-report.sh [ITEMS]   (ITEMS foreach items, two operations each; default 50000)
set -euo pipefail
cd "$(dirname "$0")/.."
items=${1:-50000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swift build -c release --product taskgraph >/dev/null
binary=.build/release/taskgraph
python3 - "$items" > "$work/big.yaml" <<'PY'
import sys
items = int(sys.argv[1])
print("version: 1\nname: big\nvars:\n  items: [" + ", ".join(f"i{n}" for n in range(items)) + "]")
print("operations:\n  fetch: {foreach: '${items}', op: group}\n  work: {foreach: '${items}', op: group, needs: fetch}")
PY
"$binary" run "$work/big.yaml" --no-cache --no-progress --events "$work/events.jsonl" --output "$work/out" 2>/dev/null | tail -1 || true
start=$(date +%s.%N)
"$binary" report "$work/events.jsonl" -o "$work/report.html"
end=$(date +%s.%N)
echo "operations: $((items * 2)), events: $(wc -l < "$work/events.jsonl") lines, $(du -h "$work/events.jsonl" | cut -f1)"
echo "taskgraph report: $(python3 -c "print(f'{$end - $start:.2f}')") s, page $(du -h "$work/report.html" | cut -f1)"
for run in 1 2 3; do
  profile=$(mktemp -d)
  start=$(date +%s.%N)
  dom=$(chromium --headless --disable-gpu --no-sandbox --no-first-run --user-data-dir="$profile" --dump-dom "file://$work/report.html" 2>/dev/null)
  end=$(date +%s.%N)
  rm -rf "$profile"
  load=$(grep -o 'data-load-ms="[0-9]*"' <<<"$dom" | grep -o '[0-9]*')
  errors=$(grep -o 'data-errors="[0-9]*"' <<<"$dom" | grep -o '[0-9]*')
  echo "chromium run $run: page drawn after ${load} ms (errors: ${errors}), chromium --dump-dom $(python3 -c "print(f'{$end - $start:.2f}')") s wall"
done
