#!/usr/bin/env bash
# Big bodies (issue J4 item 1): recording a download to a file against the live download, in process and through
# `tapedeck record --upstream`, with the memory it takes.
#
# 1. In process (`tapedeck-bench-cassette large-download`): a 160 MiB NDJSON body (records without and with a
#    `session_token`) and a 1 GiB generated body, fetched live and recorded into a fresh cassette over the same
#    CurlTransport, in PAIRS interleaved pairs; then the recording replayed to a file against `cp` of its sidecar.
#    Prints the medians, the ratios with min and max, and how far the process's peak resident set rose above what it
#    held before the first download (the server's own copy of the NDJSON body is held before, so not counted).
# 2. Through the proxy: curl fetches a SIZE_MIB file to a file from `python3 -m http.server` directly and through
#    `tapedeck record --upstream` (A then B alternating over PAIRS pairs): time to first byte, total time, and the
#    proxy's peak RSS (VmHWM). Pass a second tapedeck binary to compare two builds (each proxied run once per pair).
# 3. Serving it: the last recording of step 2 served by `tapedeck serve` (the last binary given) against nginx serving
#    the same file, curl fetching it from each in turn over PAIRS pairs (the first of each pair alternating): total
#    times, the median of nginx's time over serve's (serve's throughput as a share of nginx's) with min and max, and
#    serve's peak RSS.
#
#   bash Tools/bench/big-bodies.sh [TAPEDECK [TAPEDECK_B]]   # PAIRS=7 SIZE_MIB=256; default .build/release/tapedeck
#   IN_PROCESS=0 bash Tools/bench/big-bodies.sh …            # steps 2 and 3 only
# Build first: swift build -c release --product tapedeck. Everything listens on 127.0.0.1.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
PAIRS=${PAIRS:-7}
SIZE_MIB=${SIZE_MIB:-256}
# shellcheck source=bench-cassette.sh
source "$root/Tools/bench/bench-cassette.sh"
# shellcheck source=nginx.sh
source "$root/Tools/bench/nginx.sh"
# shellcheck source=pairs.sh
source "$root/Tools/bench/pairs.sh"
if [ "${IN_PROCESS:-1}" != 0 ]; then
    for body in plain tokens 1024MiB; do
        echo "== in process: $body ($PAIRS pairs)"
        "$TOOL" large-download "$PAIRS" "$body"
    done
fi

tapedecks=("${1:-$root/.build/release/tapedeck}")
[ $# -lt 2 ] || tapedecks+=("$2")
work="$(mktemp -d)"
upstream=""
server=""
trap '[ -n "$upstream" ] && kill "$upstream" 2>/dev/null; [ -n "$server" ] && kill "$server" 2>/dev/null; stop_nginx; rm -rf "$work"' EXIT
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
: >"$work/recorded-ratios"
for pair in $(seq "$PAIRS"); do
    direct=$(curl -fsS -o "$work/direct.bin" -w '%{time_starttransfer} %{time_total}' "http://127.0.0.1:$port/big.bin")
    printf 'pair %d: direct ttfb/total %s' "$pair" "$direct"
    label=A
    for tapedeck in "${tapedecks[@]}"; do
        through=$(proxied "$tapedeck")
        printf ' | %s ttfb/total/peak %s' "$label" "$through"
        if [ "$label" = A ]; then
            read -r _ direct_total <<<"$direct"
            read -r _ through_total _ <<<"$through"
            awk -v a="$through_total" -v b="$direct_total" 'BEGIN { print a / b }' >>"$work/recorded-ratios"
        fi
        label=B
    done
    echo
done
echo "A recorded / direct, total time: $(ratio_summary "$work/recorded-ratios")"

echo "== serving it: $SIZE_MIB MiB, $PAIRS pairs (seconds; serve's peak RSS in MiB)"
# nginx's workers do not run as root: the file and the folders above it must be readable by everyone.
chmod 755 "$work"
mkdir -p "$work/www"
ln "$work/big.bin" "$work/www/big.bin"
chmod 644 "$work/big.bin"
start_nginx "$work" 1
serve_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"${tapedecks[-1]}" serve "$work/c.json" --port "$serve_port" --allow-playback-repeats >"$work/serve.log" 2>&1 &
server=$!
for _ in $(seq 200); do curl -s -o /dev/null "http://127.0.0.1:$serve_port/" 2>/dev/null && break; sleep 0.05; done
curl -fsS -o "$work/served.bin" "http://127.0.0.1:$serve_port/big.bin"
cmp -s "$work/big.bin" "$work/served.bin" || { echo "the served body differs from the file" >&2; exit 1; }
rm -f "$work/served.bin"
fetch() { curl -fsS -o /dev/null -w '%{time_total}' "$1"; }
: >"$work/serve-ratios"
for pair in $(seq "$PAIRS"); do
    if [ "$(pair_order "$pair")" = ab ]; then
        nginx_time=$(fetch "http://127.0.0.1:$nginx_port/big.bin"); serve_time=$(fetch "http://127.0.0.1:$serve_port/big.bin")
    else
        serve_time=$(fetch "http://127.0.0.1:$serve_port/big.bin"); nginx_time=$(fetch "http://127.0.0.1:$nginx_port/big.bin")
    fi
    awk -v a="$nginx_time" -v b="$serve_time" 'BEGIN { print a / b }' >>"$work/serve-ratios"
    echo "pair $pair: nginx $nginx_time serve $serve_time"
done
echo "serve's throughput / nginx's: $(ratio_summary "$work/serve-ratios")"
echo "serve's peak RSS: $(awk '/^VmHWM:/ {print int($2 / 1024)}' "/proc/$server/status") MiB"
