#!/usr/bin/env bash
# Glob benchmark (issue #31): `taskgraph validate` of a pipeline whose five operations each run
# once per file of a 10,000-file folder (`foreach: {glob: "photos/**/*.jpg"}`, 100 directories
# of 100 files), against the same pipeline with the 10,000 ids written as a list variable
# (`foreach: ${photos}`: what the glob adds) and against Snakemake's dry run of the same five
# rules over `glob_wildcards` (`snakemake -n`: it also lists the folder and builds the DAG of
# 50,001 jobs). Target: validate ≤ 1 s. Times are medians of RUNS runs (Snakemake: SNAKEMAKE_RUNS),
# each with the tool's user+sys CPU; files are empty (validate and a dry run read no photo).
#
#   bench/run-globs.sh                   # release build of this tree; Snakemake when installed
#   FILES=2000 RUNS=3 bench/run-globs.sh
#   TASKGRAPH=/path/to/taskgraph bench/run-globs.sh
# Snakemake is a peer only when `snakemake` is on PATH (pip install snakemake).
set -euo pipefail
cd "$(dirname "$0")/.."
FILES=${FILES:-10000}
RUNS=${RUNS:-5}
SNAKEMAKE_RUNS=${SNAKEMAKE_RUNS:-1}
work=$PWD/bench/.work/globs
rm -rf "$work" && mkdir -p "$work"

if [[ -n ${TASKGRAPH:-} ]]; then
  bin=$TASKGRAPH
else
  swift build -c release --product taskgraph >/dev/null
  bin=$(swift build -c release --show-bin-path)/taskgraph
fi

python3 - "$work" "$FILES" <<'PY'
import os, sys
work, files = sys.argv[1], int(sys.argv[2])
ids = [f"d{i // 100:03}/p{i:05}" for i in range(files)]
for id in ids:
    os.makedirs(os.path.join(work, "photos", os.path.dirname(id)), exist_ok=True)
    open(os.path.join(work, "photos", id + ".jpg"), "w").close()
def pipeline(name, foreach, photo, saved):
    return f"""version: 1
name: {name}
operations:
  load: {{foreach: {foreach}, op: load, path: "{photo}"}}
  thumb: {{foreach: {foreach}, op: resize, needs: load, max_side: 320}}
  tone: {{foreach: {foreach}, op: sepia, needs: load, intensity: 0.8}}
  save: {{foreach: {foreach}, op: save, needs: tone, path: "{saved}"}}
  save-thumb: {{foreach: {foreach}, op: save, needs: thumb, path: "thumbs/{saved}"}}
  all: {{op: group, needs: [save, save-thumb]}}
"""
# The glob's ${item} is the file's path, the list's the id: both load and save the same files.
with open(os.path.join(work, "glob.yaml"), "w") as f:
    f.write(pipeline("glob", '{glob: "photos/**/*.jpg"}', "${item}", "${item}"))
with open(os.path.join(work, "list.yaml"), "w") as f:
    text = pipeline("list", '"${photos}"', "photos/${item}.jpg", "photos/${item}.jpg")
    f.write(text.replace("operations:", "vars:\n  photos:\n" + "".join(f"    - {id}\n" for id in ids) + "operations:", 1))
with open(os.path.join(work, "Snakefile"), "w") as f:
    f.write('''IDS, = glob_wildcards("photos/{id}.jpg")
rule all:
    input: expand("out/{id}.jpg", id=IDS), expand("out/thumbs/{id}.jpg", id=IDS)
rule load:
    input: "photos/{id}.jpg"
    output: "tmp/{id}.load"
    shell: "cp {input} {output}"
rule thumb:
    input: "tmp/{id}.load"
    output: "tmp/{id}.thumb"
    shell: "cp {input} {output}"
rule tone:
    input: "tmp/{id}.load"
    output: "tmp/{id}.tone"
    shell: "cp {input} {output}"
rule save:
    input: "tmp/{id}.tone"
    output: "out/{id}.jpg"
    shell: "cp {input} {output}"
rule save_thumb:
    input: "tmp/{id}.thumb"
    output: "out/thumbs/{id}.jpg"
    shell: "cp {input} {output}"
''')
PY

# Median wall time and the matching run's user+sys CPU of RUNS runs of a command, in the work
# directory; the command must succeed.
measure() {
  local runs=$1; shift
  python3 - "$work" "$runs" "$@" <<'PY'
import os, resource, statistics, subprocess, sys, time
work, runs, command = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
samples = []
for _ in range(runs):
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

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $FILES files, $((FILES * 5 + 1)) operations; median of $RUNS runs" >&2
"$bin" validate "$work/glob.yaml" >/dev/null 2>&1 || { "$bin" validate "$work/glob.yaml"; exit 1; }
rows=()
read -r wall cpu low high < <(measure "$RUNS" "$bin" validate glob.yaml)
rows+=("| \`taskgraph validate\`, \`foreach: {glob: \"photos/**/*.jpg\"}\` | $wall s | $low-$high s | $cpu s |")
read -r wall cpu low high < <(measure "$RUNS" "$bin" validate list.yaml)
rows+=("| \`taskgraph validate\`, the same ids as \`foreach: \${photos}\` | $wall s | $low-$high s | $cpu s |")
if command -v snakemake >/dev/null; then
  read -r wall cpu low high < <(measure "$SNAKEMAKE_RUNS" snakemake -n --quiet -c1)
  rows+=("| \`snakemake -n\` ($(snakemake --version)), \`glob_wildcards\` | $wall s | $low-$high s | $cpu s |")
else
  rows+=("| \`snakemake -n\` | not installed (pip install snakemake) | | |")
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
echo "| command | median | range | CPU (user+sys) |"
echo "|---|---|---|---|"
printf '%s\n' "${rows[@]}"
