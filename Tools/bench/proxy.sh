#!/usr/bin/env bash
# The forward proxy's targets (issue G3): replaying a cassette over HTTPS with keep-alive through `ForwardProxy`
# against the stub server serving the same cassette over plain HTTP (target: at least 0.5x the throughput), and the
# cost of a new intercepted host, leaf certificate issued and TLS daemons started (target: at most 5 ms), in
# interleaved pairs inside one process. Everything runs on 127.0.0.1.
#
#   bash Tools/bench/proxy.sh            # PAIRS=9 REQUESTS=2000 by default
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BENCH="$ROOT/Tools/Benchmarks"
SCRATCH=${SCRATCH:-$BENCH/.build}
PAIRS=${PAIRS:-9}
REQUESTS=${REQUESTS:-2000}
if ((PAIRS < 7)); then
    echo "PAIRS=$PAIRS: a comparison needs at least 7 interleaved pairs" >&2
    exit 2
fi
echo "== building tapedeck-bench-proxy (release)"
swift build -c release --package-path "$BENCH" --scratch-path "$SCRATCH" --product tapedeck-bench-proxy >&2
TOOL="$(swift build -c release --package-path "$BENCH" --scratch-path "$SCRATCH" --show-bin-path)/tapedeck-bench-proxy"
echo "== throughput: $REQUESTS requests over 4 keep-alive connections per side, $PAIRS pairs"
"$TOOL" throughput "$PAIRS" "$REQUESTS"
echo "== a new intercepted host, $PAIRS pairs"
"$TOOL" handshake "$PAIRS" -
