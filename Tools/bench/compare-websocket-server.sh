#!/usr/bin/env bash
# WebSocket echo round trips through the stub server (issue H8): the same client, Python websockets' asyncio
# client, against (a) Tapedeck's stub server playing a recorded conversation of COUNT echo round trips
# (libmicrohttpd's upgrade, one thread per connection) and (b) a websockets asyncio echo server, both on loopback,
# in PAIRS interleaved pairs. Prints the median of the pairwise ratios (websockets server's seconds / stub server's,
# above 1 means the stub server is faster) with min and max, and each server's CPU (user + system, read from
# /proc around each run) per round trip. Target: >= 1.0x.
#   bash Tools/bench/compare-websocket-server.sh        COUNT=2000 round trips a run, PAIRS=7
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
source "$here/pairs.sh"
COUNT="${COUNT:-2000}"
# shellcheck source=websocket-bench.sh
source "$here/websocket-bench.sh"

work=$(mktemp -d)
stub_pid=
python_pid=
cleanup() {
    [ -n "$stub_pid" ] && kill "$stub_pid" 2>/dev/null
    [ -n "$python_pid" ] && kill "$python_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

# The stub server runs until its standard input closes: a FIFO held open by this script.
mkfifo "$work/stub-in"
"$bench" serve "$COUNT" <"$work/stub-in" >"$work/stub-port" &
stub_pid=$!
exec 3>"$work/stub-in"
python3 -u "$here/websocket-echo-server.py" >"$work/python-port" &
python_pid=$!
for _ in $(seq 200); do [ -s "$work/stub-port" ] && [ -s "$work/python-port" ] && break; sleep 0.1; done
stub_url="ws://127.0.0.1:$(head -1 "$work/stub-port")/"
python_url="ws://127.0.0.1:$(head -1 "$work/python-port")/"

cat >"$work/client.py" <<'PY'
import asyncio, sys, time
from websockets.asyncio.client import connect
async def main(url, count):
    async with connect(url, ping_interval=None) as ws:
        payload = "x" * 32
        start = time.perf_counter()
        for _ in range(count):
            await ws.send(payload)
            if await ws.recv() != payload:
                sys.exit("the echo differs")
        print("%.6f" % (time.perf_counter() - start))
asyncio.run(main(sys.argv[1], int(sys.argv[2])))
PY

# cpu_ticks PID: user + system clock ticks of a process so far.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
ticks_per_second=$(getconf CLK_TCK)

# run SIDE: prints "seconds server_cpu_seconds" of one run of COUNT round trips.
run() {
    local url pid before after seconds
    if [ "$1" = a ]; then url=$stub_url; pid=$stub_pid; else url=$python_url; pid=$python_pid; fi
    before=$(cpu_ticks "$pid")
    seconds=$(python3 "$work/client.py" "$url" "$COUNT")
    after=$(cpu_ticks "$pid")
    echo "$seconds $(awk -v d="$((after - before))" -v t="$ticks_per_second" 'BEGIN { print d / t }')"
}

echo "== echo round trips: $COUNT a run, websockets client against the stub server (a) and a websockets server (b)"
round_trip_pairs "$work" "$COUNT" "stub server" "websockets server"
echo "websockets server time / stub server time: $(ratio_summary "$work/ratios") -> $(verdict "$(ratio_median "$work/ratios")" ">=" 1.0) (target >= 1.0)"
echo "server CPU per round trip (us): stub server $(ratio_summary "$work/cpu-a" | sed 's/ pairs)/ runs)/'), websockets server $(ratio_summary "$work/cpu-b" | sed 's/ pairs)/ runs)/')"
