#!/usr/bin/env bash
# Builds the program with AddressSanitizer (LeakSanitizer on) and runs 0 and 3 tasks, counting leak reports:
#   bash Tools/Sanitizers/URLSessionHostLeak/run.sh
# Seen with Swift 6.3.1 on Linux: 0 tasks none, 3 tasks 10 objects, every stack under CFURLSessionCurlHostIsEqual.
set -euo pipefail
cd "$(dirname "$0")"
swift build --sanitize=address 2>&1 | grep -v "ld.gold: warning: Cannot export local symbol" >/dev/null || true
binary="$(swift build --sanitize=address --show-bin-path)/url-session-host-leak"
for count in 0 3; do
    output=$(ASAN_OPTIONS="detect_leaks=1 exitcode=0 fast_unwind_on_malloc=0" "$binary" "$count" 2>&1 || true)
    grep -q "^$count of $count tasks failed$" <<<"$output" || { echo "error: $count tasks did not finish" >&2; exit 1; }
    objects=$(sed -n 's/^Direct leak of [0-9]* byte(s) in \([0-9]*\) object(s).*/\1/p' <<<"$output" | awk '{ sum += $1 } END { print sum + 0 }')
    echo "$count task(s): $objects object(s) reported as direct leaks, CFURLSessionCurlHostIsEqual in $(grep -c CFURLSessionCurlHostIsEqual <<<"$output" || true) stack(s)"
done
