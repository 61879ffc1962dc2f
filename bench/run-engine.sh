#!/usr/bin/env bash
# Engine benchmark: taskgraph's scheduler vs Foundation OperationQueue on identical DAGs, plus
# cycle detection and `taskgraph validate` of a generated 100,000-operation file.
# Prints a Markdown table (times are the median of RUNS runs; memory is peak RSS).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
NODES=${NODES:-100000}
JOBS=${JOBS:-$(nproc)}
work=bench/.work
mkdir -p "$work"

swift build -c release --product engine-bench >/dev/null
swift build -c release --product taskgraph >/dev/null
bin=$(swift build -c release --show-bin-path)

# measure CMD... -> prints "seconds peak_kib" where seconds is what the program printed last
measure() {
  local out
  out=$(/usr/bin/time -f "%M" "$@" 2>"$work/time.txt")
  echo "$(echo "$out" | awk '{print $NF}') $(tail -n 1 "$work/time.txt")"
}

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo); jobs=$JOBS; nodes=$NODES; median of $RUNS runs"
echo
echo "| shape | taskgraph | OperationQueue | speed-up | taskgraph peak RSS | OperationQueue peak RSS |"
echo "|---|---|---|---|---|---|"
for shape in chain fan random; do
  : >"$work/tg.txt"; : >"$work/oq.txt"; : >"$work/tgm.txt"; : >"$work/oqm.txt"
  # OperationQueue on Linux (swift-corelibs-foundation) is quadratic on a long chain (about a
  # minute for 100,000 nodes): one run of it is enough there.
  for run in $(seq "$RUNS"); do
    read -r t m < <(measure "$bin/engine-bench" run "$shape" taskgraph "$NODES" "$JOBS"); echo "$t" >>"$work/tg.txt"; echo "$m" >>"$work/tgm.txt"
    if [[ $shape != chain || $run == 1 ]]; then
      read -r t m < <(measure "$bin/engine-bench" run "$shape" operationqueue "$NODES" "$JOBS"); echo "$t" >>"$work/oq.txt"; echo "$m" >>"$work/oqm.txt"
    fi
  done
  tg=$(median <"$work/tg.txt"); oq=$(median <"$work/oq.txt")
  tgm=$(median <"$work/tgm.txt"); oqm=$(median <"$work/oqm.txt")
  awk -v s="$shape" -v tg="$tg" -v oq="$oq" -v tgm="$tgm" -v oqm="$oqm" 'BEGIN {
    printf "| %s | %.3f s | %.3f s | %.1f× | %.0f MiB | %.0f MiB |\n", s, tg, oq, oq / tg, tgm / 1024, oqm / 1024 }'
done

echo
"$bin/engine-bench" yaml "$work/big.yaml" "$NODES"
"$bin/engine-bench" yaml "$work/groups.yaml" "$NODES" groups
: >"$work/cy.txt"; : >"$work/va.txt"; : >"$work/vam.txt"; : >"$work/cym.txt"; : >"$work/ru.txt"; : >"$work/rum.txt"
: >"$work/oqp.txt"; : >"$work/oqpm.txt"
for _ in $(seq "$RUNS"); do
  read -r t m < <(measure "$bin/engine-bench" cycles 1000000); echo "$t" >>"$work/cy.txt"; echo "$m" >>"$work/cym.txt"
  start=$(date +%s.%N)
  /usr/bin/time -f "%M" "$bin/taskgraph" validate "$work/big.yaml" 2>"$work/time.txt" >/dev/null
  end=$(date +%s.%N)
  echo "$end - $start" | bc >>"$work/va.txt"; tail -n 1 "$work/time.txt" >>"$work/vam.txt"
  start=$(date +%s.%N)
  /usr/bin/time -f "%M" "$bin/taskgraph" run "$work/groups.yaml" --no-progress --output "$work/out" --cache-dir "$work/cache" 2>"$work/time.txt" >/dev/null
  end=$(date +%s.%N)
  echo "$end - $start" | bc >>"$work/ru.txt"; tail -n 1 "$work/time.txt" >>"$work/rum.txt"
  # The peer of the command as a whole: a process running OperationQueue on the same DAG.
  start=$(date +%s.%N)
  /usr/bin/time -f "%M" "$bin/engine-bench" run random operationqueue "$NODES" "$JOBS" 2>"$work/time.txt" >/dev/null
  end=$(date +%s.%N)
  echo "$end - $start" | bc >>"$work/oqp.txt"; tail -n 1 "$work/time.txt" >>"$work/oqpm.txt"
done
echo "| check | time | target | peak RSS |"
echo "|---|---|---|---|"
awk -v t="$(median <"$work/cy.txt")" -v m="$(median <"$work/cym.txt")" 'BEGIN { printf "| cycle detection, 1,000,000 edges | %.3f s | < 0.5 s | %.0f MiB |\n", t, m / 1024 }'
awk -v n="$NODES" -v t="$(median <"$work/va.txt")" -v m="$(median <"$work/vam.txt")" 'BEGIN { printf "| taskgraph validate, %d operations (%s) | %.3f s | < 2 s | %.0f MiB |\n", n, "end to end", t, m / 1024 }'
awk -v n="$NODES" -v t="$(median <"$work/ru.txt")" -v m="$(median <"$work/rum.txt")" 'BEGIN { printf "| taskgraph run, %d group operations (%s) | %.3f s | - | %.0f MiB |\n", n, "end to end, plain log", t, m / 1024 }'
awk -v n="$NODES" -v t="$(median <"$work/oqp.txt")" -v m="$(median <"$work/oqpm.txt")" -v r="$(median <"$work/ru.txt")" 'BEGIN { printf "| OperationQueue process, same %d-node DAG (whole process) | %.3f s | taskgraph run %.2f× faster | %.0f MiB |\n", n, t, t / r, m / 1024 }'
