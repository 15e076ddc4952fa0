#!/usr/bin/env bash
# Runs the whole test suite under a sanitizer, in its own build folder (.build-sanitize-KIND), and summarizes the
# reports: `bash Tools/dev/sanitize.sh thread` (ThreadSanitizer) or `bash Tools/dev/sanitize.sh address`
# (AddressSanitizer with LeakSanitizer). Extra arguments go to `swift test` (e.g. --filter CassetteTests).
# Exits non-zero when the tests fail or the sanitizer reports anything.
# No Tapedeck-specific flag: every module's lock is TapedeckCore's `Locked`, a pthread mutex ThreadSanitizer sees, so
# this is the same `swift test --sanitize=thread` a downstream suite runs (Tools/Sanitizers/Downstream checks that).
set -euo pipefail
cd "$(dirname "$0")/../.."
kind=${1:?usage: sanitize.sh thread|address [swift test arguments]}
shift
case "$kind" in
    thread|address) ;;
    *) echo "usage: sanitize.sh thread|address [swift test arguments]" >&2; exit 2 ;;
esac
bash Tools/dev/install-system-packages.sh nghttp2-server iproute2 faketime
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
# The build runs without the sanitizers' options, so that CI's two AddressSanitizer steps (which set different
# ASAN_OPTIONS) build in the same environment. The second step still rebuilds the whole package now and then (about
# 110 s; one CI run of three after this change, two of four before): what else triggers it is not known.
env -u ASAN_OPTIONS -u TSAN_OPTIONS -u LSAN_OPTIONS \
    swift build --build-tests --scratch-path ".build-sanitize-$kind" --sanitize="$kind" 2>&1 | tee "$log" || status=$?
# halt_on_error=0 and exitcode=0 let the run finish and report every problem once; the summary below decides.
# Leak reports that are LeakSanitizer's blind spots are suppressed, each entry naming its reproducer.
[ "$status" -ne 0 ] || TSAN_OPTIONS="halt_on_error=0 exitcode=0 ${TSAN_OPTIONS:-}" \
ASAN_OPTIONS="halt_on_error=0 detect_leaks=1 ${ASAN_OPTIONS:-}" \
LSAN_OPTIONS="suppressions=$PWD/Tools/Sanitizers/lsan-suppressions.txt print_suppressions=1 ${LSAN_OPTIONS:-}" \
    swift test --skip-build --scratch-path ".build-sanitize-$kind" --sanitize="$kind" "$@" 2>&1 | tee -a "$log" || status=$?
reports=$(grep -cE "^(WARNING: ThreadSanitizer|==[0-9]+==ERROR: (AddressSanitizer|LeakSanitizer))" "$log" || true)
echo "== $kind sanitizer: $reports report(s); build and test exit status $status"
if [ "$reports" -gt 0 ]; then
    grep -E "^(WARNING: ThreadSanitizer|SUMMARY: (ThreadSanitizer|AddressSanitizer|LeakSanitizer))" "$log" | sort | uniq -c | sort -rn | head -40
fi
[ "$status" -eq 0 ] && [ "$reports" -eq 0 ]
