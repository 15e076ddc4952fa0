#!/usr/bin/env bash
# Recording through a CassetteTransport (.all) versus passing through one (.passthrough): the same POSTs to an
# in-process StubServer over CurlTransport, the two alternating in blocks within one process so that the drift of a
# shared machine falls on both alike; each run's ratio comes from its block medians. Prints each run and the median
# of the runs' ratios with min and max (PAIRS runs, at least 7, see pairs.sh); see Tools/bench/README.md.
#
#   bash Tools/bench/compare-recording.sh            # COUNT=10000 BLOCK=250 PAIRS=7; ON_LOOP=1 runs both on the
#                                                    # CurlTransport executor (CurlTransport.executor); EVENTS=1
#                                                    # passes an event handler, as session tasks do;
#                                                    # LATENCY_US=1000 makes the stub server wait that long before
#                                                    # each response (an upstream farther away than loopback)
set -euo pipefail
# shellcheck source=pairs.sh
source "$(dirname "$0")/pairs.sh"

COUNT=${COUNT:-10000}
BLOCK=${BLOCK:-250}
# shellcheck source=bench-cassette.sh
source "$(dirname "$0")/bench-cassette.sh"


echo "== $PAIRS runs of $COUNT recordings and $COUNT passthrough requests, alternating blocks of $BLOCK (server latency ${LATENCY_US:-0} µs)"
ratios=()
for run in $(seq "$PAIRS"); do
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
printf '%s\n' "${ratios[@]}" >"${TMPDIR:-/tmp}/tapedeck-recording-ratios.$$"
summary=$(ratio_summary "${TMPDIR:-/tmp}/tapedeck-recording-ratios.$$")
median=$(ratio_median "${TMPDIR:-/tmp}/tapedeck-recording-ratios.$$")
rm -f "${TMPDIR:-/tmp}/tapedeck-recording-ratios.$$"
printf 'throughput ratio recording/passthrough: %s (target >= 0.9 on the median): %s\n' "$summary" "$(verdict "$median" ">=" 0.9)"
