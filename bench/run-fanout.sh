#!/usr/bin/env bash
# Fan-out benchmark (issue #31): `taskgraph run` of a pipeline whose operation `work` has one
# no-op instance (a `group`) per item of another operation's result (`foreach: {from: index}`,
# `index` printing ITEMS lines), against the same graph written with a static list
# (`foreach: ${items}`, the ITEMS ids as a list variable: what the fan-out adds is reading the
# result, planning the instances and adding them to the running engine), and against
# Snakemake's checkpoint over the same items (`checkpoint index`, then a rule per item whose
# shell command touches its output (a `run:` block costs a Python process per job in Snakemake 9),
# and an aggregate; SNAKEMAKE_ITEMS, default 1,000: Snakemake takes
# minutes at 10,000). Target: the fan-out within 1.2× of the static list. Times are medians of
# RUNS runs with the tool's user+sys CPU; every run is cold (an empty cache directory, so no kept
# plan of the static list either; Snakemake's outputs removed first).
#
#   bench/run-fanout.sh                  # release build of this tree; Snakemake when installed
#   ITEMS=2000 RUNS=3 bench/run-fanout.sh
#   TASKGRAPH=/path/to/taskgraph bench/run-fanout.sh
set -euo pipefail
cd "$(dirname "$0")/.."
ITEMS=${ITEMS:-10000}
RUNS=${RUNS:-5}
SNAKEMAKE_ITEMS=${SNAKEMAKE_ITEMS:-1000}
SNAKEMAKE_RUNS=${SNAKEMAKE_RUNS:-1}
work=$PWD/bench/.work/fanout
rm -rf "$work" && mkdir -p "$work/snakemake"

if [[ -n ${TASKGRAPH:-} ]]; then
  bin=$TASKGRAPH
else
  swift build -c release --product taskgraph >/dev/null
  bin=$(swift build -c release --show-bin-path)/taskgraph
fi

python3 - "$work" "$ITEMS" "$SNAKEMAKE_ITEMS" <<'PY'
import os, sys
work, items, snakemake_items = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
index = f'{{op: exec, command: [seq, -f, "i%05g", 1, {items}]}}'
with open(os.path.join(work, "from.yaml"), "w") as f:
    f.write(f"""version: 1
name: from
operations:
  index: {index}
  work: {{foreach: {{from: index}}, op: group}}
  all: {{op: group, needs: [index, work]}}
""")
with open(os.path.join(work, "static.yaml"), "w") as f:
    ids = "".join(f"    - i{i:05}\n" for i in range(1, items + 1))
    f.write(f"""version: 1
name: static
vars:
  items:
{ids}operations:
  index: {index}
  work: {{foreach: "${{items}}", op: group}}
  all: {{op: group, needs: [index, work]}}
""")
with open(os.path.join(work, "snakemake", "Snakefile"), "w") as f:
    f.write(f'''checkpoint index:
    output: "index.txt"
    shell: "seq -f i%05g 1 {snakemake_items} > {{output}}"
rule work:
    output: "work/{{id}}.done"
    shell: "touch {{output}}"
def done(wildcards):
    with checkpoints.index.get().output[0].open() as f:
        return [f"work/{{line.strip()}}.done" for line in f]
rule all:
    input: done
    default_target: True
''')
PY

# Median wall time and the matching run's user+sys CPU of RUNS runs of a command in directory
# DIR, running CLEAN (a shell command) before each; the command must succeed.
measure() {
  local runs=$1 dir=$2 clean=$3; shift 3
  python3 - "$dir" "$runs" "$clean" "$@" <<'PY'
import resource, subprocess, sys, time
work, runs, clean, command = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
samples = []
for _ in range(runs):
    subprocess.run(clean, shell=True, cwd=work, check=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, cwd=work, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    samples.append((wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime))
samples.sort()
wall, cpu = samples[len(samples) // 2]
print(f"{wall:.3f} {cpu:.3f} {samples[0][0]:.3f} {samples[-1][0]:.3f}")
PY
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $ITEMS items; median of $RUNS runs" >&2
for pipeline in from static; do
  "$bin" run "$work/$pipeline.yaml" --no-progress --no-cache >/dev/null 2>"$work/$pipeline.log" \
    || { cat "$work/$pipeline.log"; exit 1; }
done
rows=()
read -r from from_cpu low high < <(measure "$RUNS" "$work" "rm -rf cache" "$bin" run from.yaml --no-progress --cache-dir cache)
rows+=("| \`taskgraph run\`, \`foreach: {from: index}\` | $from s | $low-$high s | $from_cpu s |")
read -r static static_cpu low high < <(measure "$RUNS" "$work" "rm -rf cache" "$bin" run static.yaml --no-progress --cache-dir cache)
rows+=("| \`taskgraph run\`, the same ids as \`foreach: \${items}\` | $static s | $low-$high s | $static_cpu s |")
ratio=$(python3 -c "print(f'{$from / $static:.2f}× in wall time, {$from_cpu / $static_cpu:.2f}× in CPU time')")
if command -v snakemake >/dev/null; then
  read -r snake cpu low high < <(measure "$SNAKEMAKE_RUNS" "$work/snakemake" "rm -rf work index.txt .snakemake" snakemake -c1 --quiet)
  rows+=("| \`snakemake -c1\` ($(snakemake --version)), checkpoint, $SNAKEMAKE_ITEMS items | $snake s | $low-$high s | $cpu s |")
  per=$(python3 -c "print(f'{$from / $ITEMS * 1e6:.0f} µs per item for taskgraph, {$snake / $SNAKEMAKE_ITEMS * 1e3:.1f} ms per item for Snakemake ({$snake / $SNAKEMAKE_ITEMS * $ITEMS / $from:.0f}×)')")
else
  rows+=("| \`snakemake\` | not installed (pip install snakemake) | | |")
  per="Snakemake not installed"
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
echo "| command | median | range | CPU (user+sys) |"
echo "|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
echo "fan-out / static list: $ratio (target ≤ 1.2×); $per"
