#!/usr/bin/env bash
# Runs Tapedeck's libFuzzer targets (see README.md in this folder).
#
#   bash Tools/Fuzz/run.sh TARGET SECONDS [libFuzzer flags…]   one target for SECONDS
#   bash Tools/Fuzz/run.sh all SECONDS [libFuzzer flags…]      every target in turn, SECONDS each (what CI runs)
#   bash Tools/Fuzz/run.sh list                                 the targets
#   bash Tools/Fuzz/run.sh TARGET reproduce FILE                run one saved input (a crash) once
#
# Builds `tapedeck-fuzz` with --sanitize fuzzer --sanitize address (debug, so the parent package is compiled with
# testing enabled), then fuzzes from a working corpus in .build/corpus/TARGET that starts from the committed seeds
# (Corpus/TARGET) and past crashes (Regressions/TARGET); the committed folders are only read. A crash is saved as
# .build/crashes/TARGET-crash-…, the run stops, and the script exits non-zero after naming the file.
# Prints one line per target: executions, seconds, executions per second and crashes.
set -euo pipefail
start=$PWD
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
usage="usage: run.sh TARGET|all SECONDS [libFuzzer flags…] | run.sh list | run.sh TARGET reproduce FILE"
[ $# -ge 1 ] || { echo "$usage" >&2; exit 2; }
binary=.build/debug/tapedeck-fuzz

# Builds tapedeck-fuzz; like Tools/dev/test.sh, a warning in Tapedeck's own files fails the build.
build() {
    bash ../dev/install-system-packages.sh
    local log=.build/logs/build.log
    mkdir -p .build/logs
    swift build --sanitize fuzzer --sanitize address --product tapedeck-fuzz >"$log" 2>&1 || {
        tail -40 "$log" >&2
        echo "run.sh: the build failed; the whole output is in $here/$log" >&2
        exit 1
    }
    local root
    root=$(cd ../.. && pwd)
    if grep -E "^$root/(Sources|Tools)/.*warning:" "$log" >&2; then
        echo "run.sh: the build has warnings (above); Tapedeck builds with zero warnings." >&2
        exit 1
    fi
}

# The targets, as the built binary lists them when no target is chosen (FuzzTarget.all); each has a seed corpus.
list_targets() {
    # Without a target the binary prints the list and exits with status 2.
    targets=$( (TAPEDECK_FUZZ_TARGET= "$binary" -runs=0 2>&1 || true) | sed -n 's/^  \([a-z0-9-]*\): .*/\1/p')
    [ -n "$targets" ] || { echo "run.sh: $binary lists no targets" >&2; exit 1; }
    # A name of its own: `target` is the caller's chosen target, which this must not overwrite.
    local listed
    for listed in $targets; do
        [ -d "Corpus/$listed" ] || { echo "run.sh: target $listed has no seed corpus Corpus/$listed" >&2; exit 1; }
    done
}

known() {
    list_targets
    printf '%s\n' $targets | grep -qx -- "$1" || {
        echo "run.sh: no fuzz target \"$1\"; the targets are:" $targets >&2
        exit 2
    }
}

# fuzz TARGET SECONDS [flags…]: one bounded run; prints its summary line, returns non-zero on a crash.
fuzz() {
    local target=$1 seconds=$2
    shift 2
    [[ $seconds =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: SECONDS must be a positive whole number, not \"$seconds\"" >&2; exit 2; }
    local work=.build/corpus/$target log=.build/logs/$target.log
    mkdir -p "$work" .build/crashes .build/logs
    local sources=("Corpus/$target")
    [ -d "Regressions/$target" ] && sources+=("Regressions/$target")
    local status=0 leaks=1
    # The stub server keeps request bodies (Data) alive between inputs, in its journal and in connections still
    # closing, and LeakSanitizer does not see references to a Data's storage (a multi-payload enum's payload, with
    # the case in the pointer's spare bits: Tools/Sanitizers/EnumPayloadLeak), so it would report them as leaks.
    # WireMock's fault table (a static dictionary holding TransportFault.malformedResponse(Data)) is reported for the same
    # reason by the wiremock-mapping target.
    [ "$target" = stub-server-http ] && leaks=0
    [ "$target" = wiremock-mapping ] && leaks=0
    # -timeout: one input may take at most 10 s; -rss_limit_mb: a memory blow-up is a finding, not a swap storm.
    # SWIFT_BACKTRACE: the Swift runtime's own crash backtracer reads memory ASan then reports as an overflow; with
    # it off, a Swift trap reaches libFuzzer's handler, which saves the input and prints the stack.
    TAPEDECK_FUZZ_TARGET=$target SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="detect_leaks=$leaks ${ASAN_OPTIONS:-}" \
        "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -detect_leaks=$leaks -print_final_stats=1 \
        -artifact_prefix=".build/crashes/$target-" "$@" "$work" "${sources[@]}" >"$log" 2>&1 || status=$?
    local runs time crash
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    time=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)
    crash=$(sed -n 's/^artifact_prefix=.*; Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
    runs=${runs:-0}
    time=${time:-$seconds}
    printf '%-18s %12s executions %6s s %9s exec/s  %s\n' "$target" "$runs" "$time" \
        "$(( runs / (time > 0 ? time : 1) ))" "$([ -n "$crash" ] || [ "$status" -ne 0 ] && echo "CRASH" || echo "0 crashes")"
    if [ -n "$crash" ] || [ "$status" -ne 0 ]; then
        grep -E "^(==[0-9]+==ERROR|Fatal error|SUMMARY|fuzz property failed)|fatalError|Deadly signal" "$log" | head -5 >&2 || true
        echo "  log: $here/$log" >&2
        [ -n "$crash" ] && echo "  input: $here/$crash (reproduce: bash Tools/Fuzz/run.sh $target reproduce $here/$crash)" >&2
        return 1
    fi
}

case "$1" in
    list)
        build
        list_targets
        printf '%s\n' $targets
        ;;
    all)
        seconds=${2:?$usage}
        shift 2
        build
        list_targets
        failed=0
        for target in $targets; do fuzz "$target" "$seconds" "$@" || failed=1; done
        exit $failed
        ;;
    *)
        target=$1
        [ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }
        build
        known "$target"
        if [ "$2" = reproduce ]; then
            file=$(cd "$start" && realpath -- "${3:?$usage}")
            TAPEDECK_FUZZ_TARGET=$target SWIFT_BACKTRACE=enable=no "$binary" -runs=1 "$file"
        else
            seconds=$2
            shift 2
            fuzz "$target" "$seconds" "$@"
        fi
        ;;
esac
