#!/usr/bin/env bash
# Start-up of `tapedeck serve --openapi` over document size: for synthetic documents (synthetic-openapi.py) of 10 to
# 800 operations, one of 200 operations grown to about 1.4 MB by longer descriptions, and two in block YAML (200 and
# 800 operations), the milliseconds from launch to the "Serving" line and the CPU time spent by then, seven runs
# each, median (min and max beside it). Given a BASELINE tapedeck too, the two run interleaved (baseline, tapedeck,
# baseline, …) and the line adds the median of the pairwise ratios baseline/tapedeck with min and max. Build first:
# swift build -c release --product tapedeck
#
#   bash Tools/bench/openapi-startup.sh [TAPEDECK [BASELINE]]    # default .build/release/tapedeck, no baseline
#   OPENAPI_DOCUMENTS="twilio_api_v2010.yaml …" bash Tools/bench/openapi-startup.sh …   # real documents as well
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
tapedeck="${1:-$root/.build/release/tapedeck}"
baseline="${2:-}"
runs=7
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
documents=()
for operations in 10 50 100 200 400 800; do
    python3 "$root/Tools/bench/synthetic-openapi.py" "$operations" "$work/ops-$operations.json"
    documents+=("$work/ops-$operations.json")
done
python3 "$root/Tools/bench/synthetic-openapi.py" 200 "$work/ops-200-long-descriptions.json" 190
documents+=("$work/ops-200-long-descriptions.json")
for operations in 200 800; do
    python3 "$root/Tools/bench/synthetic-openapi.py" "$operations" "$work/ops-$operations.yaml"
    documents+=("$work/ops-$operations.yaml")
done
# Real documents given by the caller (Twilio's 1.5 MB api_v2010 YAML is the one issue J5 names; it is in the
# twilio/twilio-oai repository, spec/yaml).
read -r -a given <<< "${OPENAPI_DOCUMENTS:-}"
documents+=("${given[@]}")

# startup BINARY DOCUMENT: "WALL CPU", the milliseconds from launch to the "Serving" line, and the CPU time (user and
# system, 10 ms ticks) the process had used by then.
startup() {
    local started wall stat
    started=$(date +%s%N)
    coproc SERVE { exec "$1" serve --openapi "$2" --port 0 2>/dev/null; }
    read -r _ <&"${SERVE[0]}"
    wall=$(( ($(date +%s%N) - started) / 1000000 ))
    read -r -a stat < "/proc/$SERVE_PID/stat"
    echo "$wall $(( (stat[13] + stat[14]) * 1000 / $(getconf CLK_TCK) ))"
    kill "$SERVE_PID"
    wait "$SERVE_PID" 2>/dev/null || true
}

# summary VALUES…: "median (min–max)" of the values.
summary() {
    python3 -c 'import sys, statistics; v = sorted(float(x) for x in sys.argv[1:]); print(f"{statistics.median(v):g} ({v[0]:g}-{v[-1]:g})")' "$@"
}

for document in "${documents[@]}"; do
    times=() cpu=() base=() ratios=()
    for _ in $(seq "$runs"); do
        if [ -n "$baseline" ]; then
            read -r b _ <<< "$(startup "$baseline" "$document")"
            base+=("$b")
        fi
        read -r t c <<< "$(startup "$tapedeck" "$document")"
        times+=("$t") cpu+=("$c")
        if [ -n "$baseline" ]; then ratios+=("$(python3 -c "print(round($b / max($t, 1), 2))")"); fi
    done
    line=$(printf "%-32s %8d bytes  %s ms, CPU %s ms" "$(basename "$document")" "$(stat -c %s "$document")" \
        "$(summary "${times[@]}")" "$(summary "${cpu[@]}")")
    if [ -n "$baseline" ]; then line+="  baseline $(summary "${base[@]}") ms  ratio $(summary "${ratios[@]}")"; fi
    echo "$line"
done
