#!/usr/bin/env bash
# Builds the program with ThreadSanitizer and runs each hand-over RUNS times (default 4), counting TSan reports:
#   bash Tools/Sanitizers/ContinuationFastPath/run.sh
# Seen with Swift 6.3.1 on Linux: early 12 reports in 4 runs, late 0, early-locked 0 (every total 320).
set -euo pipefail
cd "$(dirname "$0")"
runs=${RUNS:-4}
swift build --sanitize=thread >/dev/null
for mode in early late early-locked; do
    reports=0
    for _ in $(seq "$runs"); do
        output=$(TSAN_OPTIONS="halt_on_error=0 exitcode=0" "$(swift build --sanitize=thread --show-bin-path)/continuation-fast-path" "$mode" 2>&1)
        grep -q "^total 320$" <<<"$output" || { echo "error: $mode computed a wrong total" >&2; exit 1; }
        reports=$((reports + $(grep -c "WARNING: ThreadSanitizer" <<<"$output" || true)))
    done
    echo "$mode: $reports ThreadSanitizer report(s) in $runs runs, every total correct"
done
