#!/usr/bin/env bash
# Builds the program with ThreadSanitizer and runs each lock RUNS times (default 8), counting TSan reports:
#   bash Tools/Sanitizers/MutexVisibility/run.sh
# Seen with Swift 6.3.1 on Linux: mutex 7–8 reports in 8 runs (every count 20000), nslock 0 in 8.
set -euo pipefail
cd "$(dirname "$0")"
runs=${RUNS:-8}
swift build --sanitize=thread >/dev/null
for lock in mutex nslock; do
    reports=0
    for _ in $(seq "$runs"); do
        output=$(TSAN_OPTIONS="halt_on_error=0 exitcode=0" "$(swift build --sanitize=thread --show-bin-path)/mutex-visibility" "$lock" 2>&1)
        grep -q "^count 20000$" <<<"$output" || { echo "error: $lock lost an update" >&2; exit 1; }
        reports=$((reports + $(grep -c "WARNING: ThreadSanitizer" <<<"$output" || true)))
    done
    echo "$lock: $reports ThreadSanitizer report(s) in $runs runs, every count correct"
done
