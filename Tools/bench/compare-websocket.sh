#!/usr/bin/env bash
# WebSocket figures (issue H8), all on loopback:
#  1. In-process replay of a 10,000-message conversation (5,000 client messages each answered, then the close) and
#     of 10,000 messages a server pushes: milliseconds per replay, median with min and max of RUNS runs.
#  2. Echo round trips with a live client, Tapedeck's (libcurl CONNECT_ONLY + its own framing) against Python
#     websockets' asyncio client, both talking to the same websockets echo server, in PAIRS interleaved pairs:
#     the median of the pairwise ratios (websockets' seconds / Tapedeck's, above 1 means Tapedeck is faster) with
#     min and max, and each side's CPU (user + system) per round trip.
#   bash Tools/bench/compare-websocket.sh            COUNT=2000 round trips a run, PAIRS=7, RUNS=15
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
source "$here/pairs.sh"
COUNT="${COUNT:-2000}"
RUNS="${RUNS:-15}"
# shellcheck source=websocket-bench.sh
source "$here/websocket-bench.sh"

echo "== in-process replay"
"$bench" replay 10000 "$RUNS" | tail -1
"$bench" push 10000 "$RUNS" | tail -1

work=$(mktemp -d)
server_pid=
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
python3 -u "$here/websocket-echo-server.py" >"$work/port" &
server_pid=$!
for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.1; done
url="ws://127.0.0.1:$(head -1 "$work/port")/"

cat >"$work/client.py" <<'PY'
import asyncio, sys, time
from websockets.asyncio.client import connect
async def main(url, count):
    async with connect(url) as ws:
        payload = "x" * 32
        start = time.perf_counter()
        for _ in range(count):
            await ws.send(payload)
            await ws.recv()
        print("%.6f" % (time.perf_counter() - start))
asyncio.run(main(sys.argv[1], int(sys.argv[2])))
PY

# run SIDE: prints "seconds cpu_seconds" of one run of COUNT round trips.
run() {
    local out
    if [ "$1" = a ]; then
        out=$( { /usr/bin/time -f "%U %S" "$bench" echo "$url" "$COUNT" >"$work/out"; } 2>&1 )
    else
        out=$( { /usr/bin/time -f "%U %S" python3 "$work/client.py" "$url" "$COUNT" >"$work/out"; } 2>&1 )
    fi
    echo "$(cat "$work/out") $(echo "$out" | tail -1 | awk '{ print $1 + $2 }')"
}

echo "== echo round trips: $COUNT a run, Tapedeck client (a) vs websockets client (b), same websockets server"
round_trip_pairs "$work" "$COUNT" tapedeck websockets
echo "websockets client time / Tapedeck client time: $(ratio_summary "$work/ratios")"
echo "CPU per round trip, whole process (us): tapedeck $(ratio_summary "$work/cpu-a" | sed 's/ pairs)/ runs)/'), websockets $(ratio_summary "$work/cpu-b" | sed 's/ pairs)/ runs)/')"
