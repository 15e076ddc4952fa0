#!/usr/bin/env bash
# Measures StubServer (libmicrohttpd, in its own process) against nginx serving the same 1 KiB JSON as a static
# file, with wrk on loopback, in the same run on the same machine:
#   1. keep-alive throughput at CONNECTIONS connections, StubServer / nginx (target ≥ 0.9), and the server CPU time
#      per request, StubServer / nginx (target ≤ 1.0);
#   2. p99 latency of StubServer at 8 connections (target ≤ 1 ms);
#   3. throughput with 10,000 stubs registered / with 1 stub (target ≥ 0.8);
# each comparison as the median of PAIRS interleaved pairs (at least 7; nginx first in odd pairs, the StubServers
# first in even ones) with min and max, see pairs.sh;
#   4. a soak: SOAK seconds at 64 connections against StubServer, zero socket errors, RSS growth ≤ 10%.
# wrk and nginx are installed with apt-get when missing. nginx runs on a loopback port with its own config in a
# temporary directory (2 workers, 1024 connections each, no access log). Every wrk run is bounded in time
# (DURATION, SOAK) and connections, and wrapped in `timeout`. Only 127.0.0.1 is contacted.
#
# Usage: bash Tools/bench/compare-stub-server.sh
#        PAIRS=7 DURATION=5 CONNECTIONS=8 THREADS=2 SOAK=60 bash Tools/bench/compare-stub-server.sh   (the defaults)
#        SOAK=0 skips the soak.
# The script reports: it exits 0 whether or not a target is met (PASS/MISS is printed) and non-zero only when
# something fails (a build error, a server that does not start, a wrong answer).
set -euo pipefail

DURATION="${DURATION:-5}"
CONNECTIONS="${CONNECTIONS:-8}"
THREADS="${THREADS:-2}"
SOAK="${SOAK:-60}"
SOAK_CONNECTIONS=64
MANY_STUBS=10000
TARGET_NGINX_RATIO=0.9
TARGET_CPU_RATIO=1.0
TARGET_P99_MS=1.0
TARGET_MANY_RATIO=0.8
TARGET_RSS_GROWTH=0.10

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=pairs.sh
source "$here/pairs.sh"
# shellcheck source=nginx.sh
source "$here/nginx.sh"
repo="$(cd "$here/../.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/tapedeck-stub-bench.XXXXXX")"
server_pids=()
server_fds=()

# stop_servers: closes every helper's stdin FIFO (each then exits) and waits for it.
stop_servers() {
    local fd pid
    for fd in "${server_fds[@]}"; do exec {fd}>&- 2>/dev/null || true; done
    for pid in "${server_pids[@]}"; do
        if kill -0 "$pid" 2>/dev/null; then
            kill "$pid" 2>/dev/null || true
            wait "$pid" 2>/dev/null || true
        fi
    done
    server_pids=()
    server_fds=()
}
cleanup() {
    stop_servers
    stop_nginx
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

sudo_cmd=()
[[ "$(id -u)" -ne 0 ]] && sudo_cmd=(sudo)
install_missing() {
    local missing=()
    command -v wrk >/dev/null || missing+=(wrk)
    ((${#missing[@]} == 0)) && return
    echo "installing ${missing[*]}…" >&2
    "${sudo_cmd[@]}" apt-get install -y "${missing[@]}" >/dev/null || {
        "${sudo_cmd[@]}" apt-get update >/dev/null && "${sudo_cmd[@]}" apt-get install -y "${missing[@]}" >/dev/null
    }
}
install_missing
nginx_bin="$(nginx_binary)"

# The body both servers send: 1024 bytes of JSON. nginx's workers run as an unprivileged user when the script is
# root, so the directory and file must be readable by everyone.
mkdir -p "$work/www"
chmod 755 "$work" "$work/www"
python3 - "$work/www/bench.json" <<'PY'
import json, sys
doc = {"id": 1, "name": "tapedeck", "items": []}
i = 0
while len(json.dumps(doc, separators=(",", ":"))) < 1024:
    doc["items"].append({"n": i, "v": "x"})
    i += 1
text = json.dumps(doc, separators=(",", ":"))
while len(text) > 1024:
    doc["items"].pop(); text = json.dumps(doc, separators=(",", ":"))
doc["pad"] = ""
text = json.dumps(doc, separators=(",", ":"))
doc["pad"] = "p" * (1024 - len(text))
open(sys.argv[1], "w").write(json.dumps(doc, separators=(",", ":")))
PY
chmod 644 "$work/www/bench.json"
[[ "$(stat -c %s "$work/www/bench.json")" -eq 1024 ]] || { echo "the benchmark body is not 1024 bytes" >&2; exit 1; }

# The stub server helper: a throwaway package that depends on this one by path, built in release once and cached
# in .build-bench-stub (ignored by git).
helper_dir="$repo/.build-bench-stub"
mkdir -p "$helper_dir/Sources/stub-bench-server"
cat >"$helper_dir/Package.swift" <<SWIFT
// swift-tools-version: 6.0
import PackageDescription
let package = Package(
    name: "stub-bench-server",
    dependencies: [.package(name: "Tapedeck", path: "$repo")],
    targets: [.executableTarget(name: "stub-bench-server", dependencies: [.product(name: "TapedeckStubServer", package: "Tapedeck")])]
)
SWIFT
cat >"$helper_dir/Sources/stub-bench-server/main.swift" <<'SWIFT'
import Foundation
import TapedeckStubServer

// stub-bench-server STUBS THREADS BODY_FILE: serves BODY_FILE as JSON at /bench.json with STUBS stubs in all
// (the others at /filler/N), prints its port, and exits when its standard input closes.
let arguments = CommandLine.arguments
guard arguments.count == 4, let stubCount = Int(arguments[1]), let threads = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: stub-bench-server STUBS THREADS BODY_FILE\n".utf8))
    exit(2)
}
let body = try Data(contentsOf: URL(fileURLWithPath: arguments[3]))
let server = try StubServer(configuration: .init(threadCount: threads))
for index in 1..<max(1, stubCount) {
    server.route(.get, "/filler/\(index)", response: .text("\(index)"))
}
server.route(.get, "/bench.json", response: StubResponse(headers: ["Content-Type": "application/json"], body: .data(body)))
FileHandle.standardOutput.write(Data("\(server.port)\n".utf8))
while readLine() != nil {}
server.stop()
SWIFT
echo "building stub-bench-server (release)…" >&2
(cd "$helper_dir" && swift build -c release >&2)
helper="$(cd "$helper_dir" && swift build -c release --show-bin-path)/stub-bench-server"

# start_server NAME STUBS: starts a helper; sets server_pid and server_port. Its stdin is a FIFO this script holds
# open, so it exits when the script does, however it ends.
start_server() {
    local name="$1" fd
    rm -f "$work/$name.stdin"
    mkfifo "$work/$name.stdin"
    "$helper" "$2" "$THREADS" "$work/www/bench.json" <"$work/$name.stdin" >"$work/$name.out" 2>"$work/$name.err" &
    server_pid=$!
    exec {fd}>"$work/$name.stdin"
    server_pids+=("$server_pid")
    server_fds+=("$fd")
    for _ in $(seq 1 100); do
        [[ -s "$work/$name.out" ]] && break
        kill -0 "$server_pid" 2>/dev/null || { cat "$work/$name.err" >&2; exit 1; }
        sleep 0.1
    done
    server_port="$(head -n 1 "$work/$name.out")"
    [[ "$server_port" =~ ^[0-9]+$ ]] || { echo "the stub server printed no port" >&2; cat "$work/$name.err" >&2; exit 1; }
    check_body "http://127.0.0.1:$server_port/bench.json"
}

check_body() {
    curl -sf "$1" -o "$work/check.json" || { echo "GET $1 failed" >&2; exit 1; }
    cmp -s "$work/check.json" "$work/www/bench.json" || { echo "GET $1 returned other bytes" >&2; exit 1; }
}

start_nginx "$work" "$THREADS"
check_body "http://127.0.0.1:$nginx_port/bench.json"
nginx_pids="$nginx_pid $(pgrep -P "$nginx_pid" | tr '\n' ' ')"
echo "nginx $("$nginx_bin" -v 2>&1 | sed 's/.*\///') pids $nginx_pids on 127.0.0.1:$nginx_port" >&2

# cpu_ticks PID…: user + system clock ticks used so far by these processes.
cpu_ticks() {
    local total=0 pid
    for pid in "$@"; do
        [[ -r "/proc/$pid/stat" ]] || continue
        total=$((total + $(awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$pid/stat")))
    done
    echo "$total"
}
clock_ticks="$(getconf CLK_TCK)"

# run_wrk NAME URL CONNECTIONS SECONDS [SERVER_PID…]: one bounded wrk run; appends
# "rps p99_ms socket_errors non2xx server_cpu_us_per_request" to NAME.results (the CPU column is 0 without PIDs).
run_wrk() {
    local name="$1" url="$2" connections="$3" seconds="$4" threads before after
    shift 4
    threads=$((connections < 2 ? connections : 2))
    before=$(cpu_ticks "$@")
    timeout $((seconds + 30)) wrk -t"$threads" -c"$connections" -d"${seconds}s" --latency "$url" >"$work/wrk.out"
    after=$(cpu_ticks "$@")
    awk -v ticks=$((after - before)) -v hz="$clock_ticks" -v seconds="$seconds" '
        /Requests\/sec:/ { rps = $2 }
        /^ +99%/ { v = $2; if (v ~ /us$/) { sub(/us$/, "", v); p99 = v / 1000 } else if (v ~ /ms$/) { sub(/ms$/, "", v); p99 = v } else if (v ~ /s$/) { sub(/s$/, "", v); p99 = v * 1000 } }
        /Socket errors:/ { gsub(/,/, ""); errors = $4 + $6 + $8 + $10 }
        /Non-2xx or 3xx responses:/ { non2xx = $5 }
        END { cpu = (rps > 0) ? ticks / hz * 1e6 / (rps * seconds) : 0; printf "%.1f %.3f %d %d %.2f\n", rps, p99, errors + 0, non2xx + 0, cpu }
    ' "$work/wrk.out" >>"$work/$name.results"
}
last() { tail -n 1 "$work/$1.results" | awk '{ printf "%.0f req/s, p99 %.3f ms, socket errors %d, non-2xx %d, server CPU %.2f µs/req", $1, $2, $3, $4, $5 }'; }
column_median() { awk -v c="$2" '{ print $c }' "$work/$1.results" | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2 == 1) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
best_p99() { awk 'NR == 1 || $2 < m { m = $2 } END { print m }' "$work/$1.results"; }
# pair_ratio A B COLUMN FILE: appends the last run of A over the last run of B, in COLUMN, to FILE.
pair_ratio() {
    awk -v a="$(tail -n 1 "$work/$1.results" | awk -v c="$3" '{ print $c }')" \
        -v b="$(tail -n 1 "$work/$2.results" | awk -v c="$3" '{ print $c }')" 'BEGIN { print (b > 0) ? a / b : 0 }' >>"$work/$4"
}
rss_kib() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }

printf 'StubServer ↔ nginx, 1 KiB JSON, keep-alive, wrk -c%d for %ss, %d interleaved pairs, %d daemon threads / nginx workers\n' \
    "$CONNECTIONS" "$DURATION" "$PAIRS" "$THREADS"
# Both StubServers run at once (an idle one costs nothing) so the three kinds of run can be interleaved: on a shared
# machine, load that comes and goes then hits all three alike.
start_server one 1
one_port="$server_port"
one_pid="$server_pid"
start_server many "$MANY_STUBS"
many_port="$server_port"
many_pid="$server_pid"
run_wrk warmup "http://127.0.0.1:$one_port/bench.json" "$CONNECTIONS" 2
run_wrk warmup "http://127.0.0.1:$many_port/bench.json" "$CONNECTIONS" 2
run_wrk warmup "http://127.0.0.1:$nginx_port/bench.json" "$CONNECTIONS" 2
for pair in $(seq 1 "$PAIRS"); do
    if [[ "$(pair_order "$pair")" == ab ]]; then
        run_wrk nginx "http://127.0.0.1:$nginx_port/bench.json" "$CONNECTIONS" "$DURATION" $nginx_pids
    fi
    run_wrk stub1 "http://127.0.0.1:$one_port/bench.json" "$CONNECTIONS" "$DURATION" "$one_pid"
    run_wrk stubmany "http://127.0.0.1:$many_port/bench.json" "$CONNECTIONS" "$DURATION" "$many_pid"
    if [[ "$(pair_order "$pair")" == ba ]]; then
        run_wrk nginx "http://127.0.0.1:$nginx_port/bench.json" "$CONNECTIONS" "$DURATION" $nginx_pids
    fi
    pair_ratio stub1 nginx 1 rps.ratios
    pair_ratio stub1 nginx 5 cpu.ratios
    pair_ratio stubmany stub1 1 many.ratios
    printf '  pair %d: nginx %s\n          StubServer (1 stub) %s\n          StubServer (%d stubs) %s\n' "$pair" "$(last nginx)" \
        "$(last stub1)" "$MANY_STUBS" "$(last stubmany)"
done
run_wrk latency8 "http://127.0.0.1:$one_port/bench.json" 8 "$DURATION" "$one_pid"
printf '  latency run at 8 connections: StubServer %s\n' "$(last latency8)"
stop_servers

cat "$work/latency8.results" >>"$work/stub1.results"
p99=$(column_median stub1 2)
rps_median=$(ratio_median "$work/rps.ratios")
cpu_median=$(ratio_median "$work/cpu.ratios")
many_median=$(ratio_median "$work/many.ratios")
echo
printf 'Medians: nginx %.0f req/s, %.2f µs server CPU per request; StubServer %.0f req/s, %.2f µs; with %d stubs %.0f req/s, %.2f µs\n' \
    "$(column_median nginx 1)" "$(column_median nginx 5)" "$(column_median stub1 1)" "$(column_median stub1 5)" \
    "$MANY_STUBS" "$(column_median stubmany 1)" "$(column_median stubmany 5)"
printf 'StubServer / nginx, req/s:           %s  target ≥ %s: %s\n' "$(ratio_summary "$work/rps.ratios")" \
    "$TARGET_NGINX_RATIO" "$(verdict "$rps_median" ">=" "$TARGET_NGINX_RATIO")"
printf 'StubServer / nginx, CPU per request: %s  target ≤ %s: %s\n' "$(ratio_summary "$work/cpu.ratios")" \
    "$TARGET_CPU_RATIO" "$(verdict "$cpu_median" "<=" "$TARGET_CPU_RATIO")"
printf '%d stubs / 1 stub, req/s:         %s  target ≥ %s: %s\n' "$MANY_STUBS" "$(ratio_summary "$work/many.ratios")" \
    "$TARGET_MANY_RATIO" "$(verdict "$many_median" ">=" "$TARGET_MANY_RATIO")"
printf 'StubServer p99 latency:              %.3f ms, median of the 1-stub runs (target ≤ %s ms at 8 connections) %s\n' "$p99" \
    "$TARGET_P99_MS" "$( ((CONNECTIONS == 8)) && verdict "$p99" "<=" "$TARGET_P99_MS" || echo "(runs not at 8 connections)")"
printf '                                     (nginx p99 in the same runs: median %s ms, best %s ms; StubServer best %s ms)\n' \
    "$(column_median nginx 2)" "$(best_p99 nginx)" "$(best_p99 stub1)"

if ((SOAK > 0)); then
    start_server soak 1
    soak_pid="$server_pid"
    run_wrk soakwarm "http://127.0.0.1:$server_port/bench.json" "$SOAK_CONNECTIONS" 5
    rss_before=$(rss_kib "$soak_pid")
    run_wrk soak "http://127.0.0.1:$server_port/bench.json" "$SOAK_CONNECTIONS" "$SOAK"
    rss_after=$(rss_kib "$soak_pid")
    stop_servers
    read -r soak_rps _ soak_errors soak_non2xx _ <"$work/soak.results"
    growth=$(awk -v a="$rss_after" -v b="$rss_before" 'BEGIN { printf "%.3f", (a - b) / b }')
    printf 'Soak %ss at %d connections: %.0f req/s, socket errors %d (target 0) %s, non-2xx %d, RSS %.1f → %.1f MiB, growth %.1f%% (target ≤ %d%%) %s\n' \
        "$SOAK" "$SOAK_CONNECTIONS" "$soak_rps" "$soak_errors" "$( ((soak_errors == 0)) && echo PASS || echo MISS)" "$soak_non2xx" \
        "$(awk -v k="$rss_before" 'BEGIN { print k / 1024 }')" "$(awk -v k="$rss_after" 'BEGIN { print k / 1024 }')" \
        "$(awk -v g="$growth" 'BEGIN { print g * 100 }')" "$(awk -v t="$TARGET_RSS_GROWTH" 'BEGIN { print t * 100 }')" \
        "$(verdict "$growth" "<=" "$TARGET_RSS_GROWTH")"
fi
