#!/usr/bin/env bash
# Builds the whole test suite under a sanitizer and runs it: scripts/sanitize.sh thread|address
#
# Every process built here reports into one directory (the sanitizer's log_path): the test
# runner and each `taskgraph` binary the end-to-end tests start, including those killed by a
# signal or ended by _exit, whose stderr or exit status a test may not look at. Any report there
# fails the run, as does any failed test. Build folders: .build-tsan, .build-asan.
set -euo pipefail
cd "$(dirname "$0")/.."

case "${1:-}" in
  thread)
    scratch=.build-tsan
    options_variable=TSAN_OPTIONS
    # Report every race, not just the first; also the second stack of a lock-order inversion.
    options="halt_on_error=0 second_deadlock_stack=1"
    # The million-node graph tests are left to the plain run: single-threaded graph algorithms,
    # which took 190 s of the 1,530 under ThreadSanitizer and give it nothing to check.
    skipped='[Mm]illionNode'
    ;;
  address)
    scratch=.build-asan
    options_variable=ASAN_OPTIONS
    # Leak checking (LeakSanitizer) is on by default on Linux; say so explicitly.
    options="detect_leaks=1"
    skipped='^$'
    ;;
  *)
    echo "usage: scripts/sanitize.sh thread|address" >&2
    exit 64
    ;;
esac
sanitizer=$1

scripts/setup.sh

reports=$(mktemp -d "${TMPDIR:-/tmp}/taskgraph-$sanitizer-sanitizer.XXXXXX")
trap 'rm -rf "$reports"' EXIT

start=$SECONDS
swift build --build-tests --sanitize="$sanitizer" --scratch-path "$scratch"
built=$SECONDS

# The tests use Swift Testing only. XCTest's runner leaks its own objects even when it runs no
# test (LeakSanitizer), so it is not started; fail rather than skip XCTest tests if any appear.
if grep -rlq --include='*.swift' '^import XCTest' Tests; then
  echo "sanitize: XCTest tests found under Tests/; drop --disable-xctest below" >&2
  exit 1
fi

# One test at a time: instrumented, the CPU-heavy tests (million-node graphs, image kernels) run
# many times slower and, beside the cancellation and timeout tests, keep both cooperative
# threads busy for longer than those tests' hang guards allow.
status=0
env "$options_variable=$options log_path=$reports/report" TASKGRAPH_TEST_SANITIZER="$sanitizer" \
  swift test --skip-build --disable-xctest --no-parallel --skip "$skipped" \
  --sanitize="$sanitizer" --scratch-path "$scratch" || status=$?
finished=$SECONDS

shopt -s nullglob
report_files=("$reports"/report.*)
if ((${#report_files[@]} > 0)); then
  for file in "${report_files[@]}"; do
    echo "=== $sanitizer sanitizer report from pid ${file##*.}" >&2
    cat "$file" >&2
  done
  echo "sanitize: ${#report_files[@]} process(es) reported problems under the $sanitizer sanitizer" >&2
  status=1
fi

echo "sanitize: $sanitizer: build $((built - start)) s, tests $((finished - built)) s," \
  "exit status $status" >&2
exit "$status"
