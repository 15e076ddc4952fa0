#!/usr/bin/env bash
# Builds the program with AddressSanitizer (LeakSanitizer on) and runs it both ways, counting leak reports:
#   bash Tools/Sanitizers/EnumPayloadLeak/run.sh
# Seen with Swift 6.3 on Linux: enum 3 objects reported (the three kept ones), struct none, data 3 (their storage),
# static 3 (allocated in Assets.blobs's one-time initializer, a `_WZ` frame).
set -euo pipefail
cd "$(dirname "$0")"
swift build --sanitize=address 2>&1 | grep -v "ld.gold: warning: Cannot export local symbol" >/dev/null || true
binary="$(swift build --sanitize=address --show-bin-path)/enum-payload-leak"
for mode in enum struct data static; do
    output=$(ASAN_OPTIONS="detect_leaks=1 exitcode=0" "$binary" "$mode" 2>&1 || true)
    grep -q "^kept all three objects$" <<<"$output" || { echo "error: $mode lost an object" >&2; exit 1; }
    objects=$(sed -n 's/^Direct leak of [0-9]* byte(s) in \([0-9]*\) object(s).*/\1/p' <<<"$output" | awk '{ sum += $1 } END { print sum + 0 }')
    echo "$mode: $objects object(s) reported as direct leaks"
done
