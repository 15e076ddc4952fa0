#!/usr/bin/env bash
# Start-up of `tapedeck serve --openapi` over document size: for synthetic documents (synthetic-openapi.py) of 10 to
# 800 operations, and one of 200 operations grown to about 1.4 MB by longer descriptions, the seconds from launch to
# the "Serving" line, five runs each, median (min and max beside it). Build first: swift build -c release --product tapedeck
#
#   bash Tools/bench/openapi-startup.sh [TAPEDECK]     # default .build/release/tapedeck
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
tapedeck="${1:-$root/.build/release/tapedeck}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
documents=()
for operations in 10 50 100 200 400 800; do
    python3 "$root/Tools/bench/synthetic-openapi.py" "$operations" "$work/ops-$operations.json"
    documents+=("$work/ops-$operations.json")
done
python3 "$root/Tools/bench/synthetic-openapi.py" 200 "$work/ops-200-long-descriptions.json" 190
documents+=("$work/ops-200-long-descriptions.json")
for document in "${documents[@]}"; do
    runs=()
    for _ in 1 2 3 4 5; do
        started=$(date +%s%N)
        coproc SERVE { "$tapedeck" serve --openapi "$document" --port 0 2>/dev/null; }
        read -r _ <&"${SERVE[0]}"
        runs+=($(( ($(date +%s%N) - started) / 1000000 )))
        kill "$SERVE_PID"
        wait "$SERVE_PID" 2>/dev/null || true
    done
    sorted=($(printf "%s\n" "${runs[@]}" | sort -n))
    printf "%-32s %8d bytes  median %5d ms  (min %d, max %d)\n" "$(basename "$document")" "$(stat -c %s "$document")" \
        "${sorted[2]}" "${sorted[0]}" "${sorted[4]}"
done
