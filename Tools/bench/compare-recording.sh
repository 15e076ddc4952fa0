#!/usr/bin/env bash
# Recording through a CassetteTransport (.all) versus passing through one (.passthrough): the same POSTs to an
# in-process StubServer over CurlTransport, the two alternating in blocks within one process so that the drift of a
# shared machine falls on both alike. Prints each run's ratios and the median; see Tools/bench/README.md.
#
#   bash Tools/bench/compare-recording.sh            # COUNT=10000 BLOCK=250 RUNS=5; ON_LOOP=1 runs both on the
#                                                    # CurlTransport executor (CurlTransport.executor); EVENTS=1
#                                                    # sends through the event stream, as session tasks do;
#                                                    # LATENCY_US=1000 makes the stub server wait that long before
#                                                    # each response (an upstream farther away than loopback)
set -euo pipefail

COUNT=${COUNT:-10000}
BLOCK=${BLOCK:-250}
RUNS=${RUNS:-5}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BENCH="$ROOT/Tools/Benchmarks"
SCRATCH=${SCRATCH:-$BENCH/.build}

echo "== building tapedeck-bench-cassette (release)"
swift build -c release --package-path "$BENCH" --scratch-path "$SCRATCH" --product tapedeck-bench-cassette >&2
TOOL="$(swift build -c release --package-path "$BENCH" --scratch-path "$SCRATCH" --show-bin-path)/tapedeck-bench-cassette"

echo "== $RUNS runs of $COUNT recordings and $COUNT passthrough requests, alternating blocks of $BLOCK (server latency ${LATENCY_US:-0} µs)"
ratios=()
for run in $(seq "$RUNS"); do
    output=$("$TOOL" record "$COUNT" "$BLOCK")
    passthrough=$(awk '/^passthrough median/ {print $3}' <<<"$output")
    recording=$(awk '/^recording median/ {print $3}' <<<"$output")
    ratio=$(awk '/^ratio/ {print $4}' <<<"$output")
    passthroughCPU=$(awk '/^passthrough cpu/ {print $3}' <<<"$output")
    recordingCPU=$(awk '/^recording cpu/ {print $3}' <<<"$output")
    printf 'run %d: passthrough %.1f µs/request, recording %.1f µs/request (block medians), throughput ratio %.3f; process CPU %.1f vs %.1f µs/request\n' \
        "$run" "$passthrough" "$recording" "$ratio" "$passthroughCPU" "$recordingCPU"
    ratios+=("$ratio")
done
median=$(printf '%s\n' "${ratios[@]}" | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}')
verdict=$(awk -v r="$median" 'BEGIN {print (r >= 0.9) ? "PASS" : "MISS"}')
printf 'median throughput ratio recording/passthrough: %.3f (target >= 0.9): %s\n' "$median" "$verdict"
