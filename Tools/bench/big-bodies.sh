#!/usr/bin/env bash
# Big bodies (issue J4 item 1): recording a download to a file against the live download, in process and through
# `tapedeck record --upstream`, with the memory it takes.
#
# 1. In process (`tapedeck-bench-cassette large-download`): a 160 MiB NDJSON body (records without and with a
#    `session_token`) and a 1 GiB generated body, fetched live and recorded into a fresh cassette over the same
#    CurlTransport, in PAIRS interleaved pairs; then the recording replayed to a file against `cp` of its sidecar.
#    Prints the medians, the ratios with min and max, and how far the process's peak resident set rose above what it
#    held before the first download (the server's own copy of the NDJSON body is held before, so not counted).
# 2. Through the proxy: curl fetches a SIZE_MIB file from `python3 -m http.server` directly and through
#    `tapedeck record --upstream` (A then B alternating over PAIRS pairs): time to first byte, total time, and the
#    proxy's peak RSS (VmHWM). Pass a second tapedeck binary to compare two builds (each proxied run once per pair).
#
#   bash Tools/bench/big-bodies.sh [TAPEDECK [TAPEDECK_B]]   # PAIRS=7 SIZE_MIB=256; default .build/release/tapedeck
# Build first: swift build -c release --product tapedeck. Everything listens on 127.0.0.1.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
PAIRS=${PAIRS:-7}
SIZE_MIB=${SIZE_MIB:-256}
# shellcheck source=bench-cassette.sh
source "$root/Tools/bench/bench-cassette.sh"
for body in plain tokens 1024MiB; do
    echo "== in process: $body ($PAIRS pairs)"
    "$TOOL" large-download "$PAIRS" "$body"
done

tapedecks=("${1:-$root/.build/release/tapedeck}")
[ $# -lt 2 ] || tapedecks+=("$2")
work="$(mktemp -d)"
upstream=""
trap '[ -n "$upstream" ] && kill "$upstream" 2>/dev/null; rm -rf "$work"' EXIT
head -c "$((SIZE_MIB << 20))" /dev/urandom > "$work/big.bin"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
(cd "$work" && exec python3 -m http.server "$port" --bind 127.0.0.1 >/dev/null 2>&1) &
upstream=$!
for _ in $(seq 100); do curl -fsS -o /dev/null "http://127.0.0.1:$port/" 2>/dev/null && break; sleep 0.05; done

# proxied TAPEDECK: one download through a fresh recording proxy; prints "ttfb total peak-MiB".
proxied() {
    local proxy_port pid line hwm
    rm -rf "$work/c.json" "$work/c.bodies"
    proxy_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    "$1" record --upstream "http://127.0.0.1:$port" --cassette "$work/c.json" --listen "127.0.0.1:$proxy_port" --mode all >"$work/record.log" 2>&1 &
    pid=$!
    for _ in $(seq 200); do curl -s -o /dev/null "http://127.0.0.1:$proxy_port/" 2>/dev/null && break; sleep 0.05; done
    line=$(curl -fsS -o "$work/through.bin" -w '%{time_starttransfer} %{time_total}' "http://127.0.0.1:$proxy_port/big.bin")
    hwm=$(awk '/^VmHWM:/ {print int($2 / 1024)}' "/proc/$pid/status")
    kill -INT "$pid"
    wait "$pid" || true
    cmp -s "$work/big.bin" "$work/through.bin" || { echo "the proxied download differs from the file" >&2; exit 1; }
    echo "$line $hwm"
}

echo "== through the proxy: $SIZE_MIB MiB, $PAIRS pairs (seconds; peak RSS in MiB)"
for pair in $(seq "$PAIRS"); do
    direct=$(curl -fsS -o /dev/null -w '%{time_starttransfer} %{time_total}' "http://127.0.0.1:$port/big.bin")
    printf 'pair %d: direct ttfb/total %s' "$pair" "$direct"
    label=A
    for tapedeck in "${tapedecks[@]}"; do
        printf ' | %s ttfb/total/peak %s' "$label" "$(proxied "$tapedeck")"
        label=B
    done
    echo
done
