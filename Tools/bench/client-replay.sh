#!/usr/bin/env bash
# The client stack's cost over the transport's, and large bodies, on cassettes (all in one process, loopback only):
#   1. 10,000 distinct realistic interactions (a query, eight headers each way, ~300 bytes of JSON) replayed through
#      HTTPSessionManager.get with its JSON serializer and through CassetteTransport.send alone, in alternating blocks
#      of BLOCK requests, three rounds after a warm-up: per-request medians, the median of the blocks' ratios with min
#      and max, and process CPU per request of each side;
#   2. a 4 MiB in-memory PUT to an in-process StubServer, live and recorded into a fresh cassette as PAIRS interleaved
#      pairs (at least 7), and replayed from that cassette;
#   3. what each layer of HTTPSessionManager.get adds to a request over a transport that answers at once from memory
#      (tapedeck-bench-cassette client-stages): the pipeline, the task, the JSON serializer, the request building.
# Mallocs per request of the first comparison come from the package benchmarks:
#   cd Tools/Benchmarks && swift package benchmark --target CassetteBenchmarks --filter "Client replay.*" --filter "Transport replay.*"
#
#   bash Tools/bench/client-replay.sh              # COUNT=10000 BLOCK=500 PAIRS=9
set -euo pipefail
PAIRS=${PAIRS:-9}
# shellcheck source=pairs.sh
source "$(dirname "$0")/pairs.sh"

COUNT=${COUNT:-10000}
BLOCK=${BLOCK:-500}
# shellcheck source=bench-cassette.sh
source "$(dirname "$0")/bench-cassette.sh"


field() { awk -v key="$2" -v name="$3" '$1 == key { for (i = 2; i < NF; i++) if ($i == name) print $(i + 1) }' <<<"$1"; }

echo "== $COUNT realistic interactions, client stack versus transport alone, blocks of $BLOCK"
out=$("$TOOL" client-replay "$COUNT" "$BLOCK")
client=$(field "$out" client median-us); transport=$(field "$out" transport median-us)
ratio=$(field "$out" ratio median)
printf 'client    %6.2f µs a request (CPU %.2f µs)   target <= 20 µs: %s\n' "$client" "$(field "$out" client cpu-us-per-request)" "$(verdict "$client" "<=" 20)"
printf 'transport %6.2f µs a request (CPU %.2f µs)   target <= 10 µs: %s\n' "$transport" "$(field "$out" transport cpu-us-per-request)" "$(verdict "$transport" "<=" 10)"
printf 'client/transport: median %.3f (min %.3f, max %.3f, %s blocks)   target <= 1.5: %s\n' "$ratio" \
    "$(field "$out" ratio min)" "$(field "$out" ratio max)" "$(field "$out" ratio blocks)" "$(verdict "$ratio" "<=" 1.5)"

echo
echo "== a 4 MiB in-memory PUT, $PAIRS pairs of live and recorded (alternating order), each then replayed"
out=$("$TOOL" large-put "$PAIRS" -)
replay=$(field "$out" replay median-ms); ratio=$(field "$out" ratio median)
printf 'live %.2f ms, recorded %.2f ms, replayed %.3f ms (slowest %.3f ms)\n' "$(field "$out" live median-ms)" \
    "$(field "$out" record median-ms)" "$replay" "$(field "$out" replay max-ms)"
printf 'replay: median %.3f ms   target <= 5 ms: %s\n' "$replay" "$(verdict "$replay" "<=" 5)"
printf 'recorded/live: median %.3f (min %.3f, max %.3f, %s pairs)   target <= 2: %s\n' "$ratio" \
    "$(field "$out" ratio min)" "$(field "$out" ratio max)" "$(field "$out" ratio pairs)" "$(verdict "$ratio" "<=" 2)"

echo
echo "== where a client request's time goes: each layer of HTTPSessionManager.get over an instant transport (2,000 URLs)"
out=$("$TOOL" client-stages 2000 5)
previous=0
for stage in transport pipeline task json client; do
    value=$(awk -v key="$stage" '$1 == key { print $3 }' <<<"$out")
    printf '%-9s %6.2f µs a request (+%.2f)\n' "$stage" "$value" "$(awk -v a="$value" -v b="$previous" 'BEGIN { print a - b }')"
    previous=$value
done
printf 'build     %6.2f µs a request (the request alone, inside client)\n' "$(awk '$1 == "build" { print $3 }' <<<"$out")"
