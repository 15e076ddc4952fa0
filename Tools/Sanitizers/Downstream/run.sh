#!/usr/bin/env bash
# Runs the downstream suite with plain `swift test --sanitize=thread`, as a team using Tapedeck would run its own
# tests, and fails on any ThreadSanitizer report (or a failing test):
#   bash Tools/Sanitizers/Downstream/run.sh              # ROUNDS=3 runs the built suite that many times
set -euo pipefail
cd "$(dirname "$0")"
bash ../../dev/install-system-packages.sh
rounds=${ROUNDS:-2}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
swift build --build-tests --sanitize=thread
status=0
for round in $(seq "$rounds"); do
    TSAN_OPTIONS="halt_on_error=0 exitcode=0 ${TSAN_OPTIONS:-}" \
        swift test --skip-build --sanitize=thread 2>&1 | tee -a "$log" || status=$?
    echo "== downstream round $round done"
done
reports=$(grep -c "^WARNING: ThreadSanitizer" "$log" || true)
echo "== downstream suite under plain --sanitize=thread: $reports report(s) in $rounds round(s); swift test exit status $status"
if [ "$reports" -gt 0 ]; then
    grep -E "^SUMMARY: ThreadSanitizer" "$log" | sort | uniq -c | sort -rn | head -20
fi
[ "$status" -eq 0 ] && [ "$reports" -eq 0 ]
