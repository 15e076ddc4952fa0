#!/usr/bin/env bash
# Measures flakiness instead of guessing it: runs the README's test command (Tools/dev/test.sh) N times while a CPU hog
# keeps every core busy, then CI's ThreadSanitizer step (Tools/dev/sanitize-thread-step.sh) M times on a quiet machine,
# and counts, per test, the runs it failed in. Each run is bounded (TAPEDECK_FLAKINESS_LIMIT seconds, default 2400).
#
#   bash Tools/dev/flakiness.sh N M          e.g. `bash Tools/dev/flakiness.sh 20 10` (what J3 asks); default 3 1
#
# Logs stay in .build/flakiness/ (one per run); the table goes to stdout and .build/flakiness/summary.txt. Exits
# non-zero when any run failed.
set -euo pipefail
cd "$(dirname "$0")/../.."
plain_runs=${1:-3}
thread_runs=${2:-1}
limit=${TAPEDECK_FLAKINESS_LIMIT:-2400}
out=.build/flakiness
mkdir -p "$out"
rm -f "$out"/*.log

hog_pids=()
start_hog() {
    local core
    for core in $(seq "$(nproc)"); do
        (while :; do :; done) &
        hog_pids+=($!)
    done
}
stop_hog() {
    [ "${#hog_pids[@]}" -eq 0 ] || kill "${hog_pids[@]}" 2>/dev/null || true
    hog_pids=()
}
trap stop_hog EXIT

# run KIND INDEX COMMAND…: one bounded run, its output in $out/KIND-INDEX.log; prints its exit status.
run() {
    local kind=$1 index=$2
    shift 2
    local status=0
    timeout --kill-after=30 "$limit" "$@" >"$out/$kind-$index.log" 2>&1 || status=$?
    echo "$status"
}

# failed_tests LOG: the tests a run reported failing (Swift Testing's `✘ Test name() failed`, XCTest's
# `Test Case '-[Suite test]' failed`), once each.
failed_tests() {
    # A log without failures makes grep exit 1, which under pipefail would end the whole script.
    { grep -oE "✘ Test [^ ]+\(.*\) failed" "$1" | sed -E 's/^✘ Test ([^ ]+\(.*\)) failed$/\1/' | sed -E 's/\) failed.*$/)/' || true
      grep -oE "Test Case '[^']+' failed" "$1" | sed -E "s/^Test Case '([^']+)' failed$/\1/" || true
    } | sort -u
}

declare -A failures=()
failed_runs=0
tally() {
    local kind=$1 index=$2 status=$3 tests
    tests=$(failed_tests "$out/$kind-$index.log")
    if [ "$status" -ne 0 ]; then
        failed_runs=$((failed_runs + 1))
        [ -n "$tests" ] || tests="(the run itself: exit status $status, see $out/$kind-$index.log)"
    fi
    while IFS= read -r test; do
        [ -n "$test" ] || continue
        failures["$kind  $test"]=$(( ${failures["$kind  $test"]:-0} + 1 ))
    done <<<"$tests"
    echo "== $kind run $index: exit status $status$( [ -z "$tests" ] || printf ', failed: %s' "$(echo "$tests" | paste -sd ' ')" )"
}

# Builds first, quietly, so that the hog does not slow a build into the first run's limit.
swift build --build-tests >/dev/null
for index in $(seq "$plain_runs"); do
    start_hog
    tally plain "$index" "$(run plain "$index" bash Tools/dev/test.sh)"
    stop_hog
done
for index in $(seq "$thread_runs"); do
    tally thread "$index" "$(run thread "$index" bash Tools/dev/sanitize-thread-step.sh)"
done

{
    echo "== flakiness: $plain_runs run(s) of test.sh beside a $(nproc)-core hog, $thread_runs run(s) of the ThreadSanitizer step"
    echo "== $failed_runs run(s) failed"
    if [ "${#failures[@]}" -gt 0 ]; then
        printf 'runs failed  step    test\n'
        for key in "${!failures[@]}"; do printf '%11d  %s\n' "${failures[$key]}" "$key"; done | sort -rn
    fi
} | tee "$out/summary.txt"
[ "$failed_runs" -eq 0 ]
