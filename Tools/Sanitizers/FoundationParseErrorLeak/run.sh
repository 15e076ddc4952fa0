#!/usr/bin/env bash
# Builds the program with AddressSanitizer (LeakSanitizer on) and runs each mode, counting leak reports:
#   bash Tools/Sanitizers/FoundationParseErrorLeak/run.sh
# Seen with Swift 6.3.1 on Linux: plist 3 direct leaks (the CFErrors), xml 6 (two strings per failed parse),
# plist-valid and xml-valid none.
set -euo pipefail
cd "$(dirname "$0")"
swift build --sanitize=address 2>&1 | grep -v "ld.gold: warning: Cannot export local symbol" >/dev/null || true
binary="$(swift build --sanitize=address --show-bin-path)/foundation-parse-error-leak"
for mode in plist plist-valid xml xml-valid; do
    output=$(ASAN_OPTIONS="detect_leaks=1 exitcode=0" "$binary" "$mode" 2>&1 || true)
    grep -q "^[0-3] of 3 parses failed$" <<<"$output" || { echo "error: $mode did not finish" >&2; exit 1; }
    objects=$(sed -n 's/^Direct leak of [0-9]* byte(s) in \([0-9]*\) object(s).*/\1/p' <<<"$output" | awk '{ sum += $1 } END { print sum + 0 }')
    echo "$mode: $(grep -o '^[0-3] of 3 parses failed' <<<"$output"); $objects object(s) reported as direct leaks"
done
