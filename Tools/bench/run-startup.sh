#!/usr/bin/env bash
# What `tapedeck run` adds to a command's start (issue J2's target: at most 50 ms): the wall milliseconds of
# `tapedeck run --cassette C -- CMD` against CMD alone, in PAIRS interleaved pairs (A then B, then B then A, …) of
# RUNS runs each, for two commands: `true` (the bare start and end: the proxy, its CA, the environment, the cassette
# loaded, saved or reported) and `curl` fetching one URL through the proxy from a cassette (replayed) against curl
# fetching it from a local `tapedeck serve` of the same cassette (the request's own cost on both sides). Prints each
# pair and the median with min and max of the milliseconds added. Build first:
# swift build -c release --product tapedeck
#
#   bash Tools/bench/run-startup.sh [TAPEDECK]     # default .build/release/tapedeck; PAIRS=9 RUNS=10
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
tapedeck="${1:-$root/.build/release/tapedeck}"
PAIRS=${PAIRS:-9}
# shellcheck source=pairs.sh
source "$root/Tools/bench/pairs.sh"
RUNS=${RUNS:-10}
work="$(mktemp -d)"
served=""
trap '[ -n "$served" ] && kill "$served" 2>/dev/null; rm -rf "$work"' EXIT

# A cassette of one GET, recorded from a stub server.
cat > "$work/stubs.json" <<'EOF'
[{"request": {"method": "GET", "path": "/hello"}, "response": {"status": 200, "body": "hello\n"}}]
EOF
"$tapedeck" serve --stubs "$work/stubs.json" --port 0 > "$work/upstream.log" 2>&1 &
upstream=$!
for _ in $(seq 100); do grep -q "http://127.0.0.1:" "$work/upstream.log" && break; sleep 0.05; done
origin=$(grep -o "http://127\.0\.0\.1:[0-9]*" "$work/upstream.log" | head -1)
"$tapedeck" run --record --cassette "$work/one.json" -- curl -fsS "$origin/hello" > /dev/null
kill "$upstream"; wait "$upstream" 2>/dev/null || true
"$tapedeck" serve "$work/one.json" --port 0 > "$work/served.log" 2>&1 &
served=$!
for _ in $(seq 100); do grep -q "http://127.0.0.1:" "$work/served.log" && break; sleep 0.05; done
served_url=$(grep -o "http://127\.0\.0\.1:[0-9]*" "$work/served.log" | head -1)

# ms_of_runs COMMAND…: the median wall milliseconds of RUNS runs.
ms_of_runs() {
    local samples=()
    for _ in $(seq "$RUNS"); do
        local start end
        start=$(date +%s%N)
        "$@" > /dev/null 2>&1
        end=$(date +%s%N)
        samples+=($(( (end - start) / 1000 )))
    done
    printf '%s\n' "${samples[@]}" | sort -n | awk '{ v[NR] = $1 } END { printf "%.2f", v[int((NR + 1) / 2)] / 1000 }'
}

# compare LABEL "A…" "B…": PAIRS interleaved pairs; B's milliseconds minus A's.
compare() {
    local label="$1" a="$2" b="$3" added="$work/added-$1"
    : > "$added"
    echo "== $label"
    for pair in $(seq "$PAIRS"); do
        local ma mb
        if [ "$(pair_order "$pair")" = ab ]; then ma=$(ms_of_runs $a); mb=$(ms_of_runs $b); else mb=$(ms_of_runs $b); ma=$(ms_of_runs $a); fi
        echo "pair $pair: alone $ma ms, through tapedeck run $mb ms"
        awk -v a="$ma" -v b="$mb" 'BEGIN { printf "%.3f\n", b - a }' >> "$added"
    done
    echo "ms added: $(ratio_summary "$added")"
}

compare true "true" "$tapedeck run --cassette $work/one.json -- true"
compare curl "curl -fsS $served_url/hello" "$tapedeck run --cassette $work/one.json -- curl -fsS $origin/hello"
