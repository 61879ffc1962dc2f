# Sourced by benches that replace files between timed runs: `set_aside PATH...` moves each PATH
# that exists into its own directory of $trash (set by the bench, removed when it ends), so no
# timed run follows a large removal (bench/run-cache.sh says why).
trashed=0
set_aside() {
  local path
  for path; do
    [[ -e $path ]] || continue
    trashed=$((trashed + 1))
    mkdir -p "$trash/$trashed" || exit 1
    mv "$path" "$trash/$trashed/" || exit 1
  done
}
