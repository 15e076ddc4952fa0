#!/usr/bin/env bash
# What stored replay rules cost, build A against build B, in interleaved pairs: an A/B of two `tapedeck` binaries (an
# earlier commit's and this one's) on a cassette of COUNT distinct GETs, then B on the same cassette with and without
# a stored `replay` member (format version 3). Two figures each:
#   - load and save: `tapedeck convert CASSETTE --to cassette -o OUT` (reads the whole file, writes it again), seconds;
#   - replay: `tapedeck serve CASSETTE` answering wrk's GETs, each a recorded path (cycling through all COUNT), over
#     CONNECTIONS keep-alive connections for SECONDS_PER_RUN, requests per second.
# Prints each pair and the median of the ratios with min and max (see pairs.sh).
#
#   bash Tools/bench/ab-cassette-cli.sh A_TAPEDECK B_TAPEDECK      # PAIRS=7 COUNT=20000 SECONDS_PER_RUN=4 CONNECTIONS=4
#
# Build the two binaries in release mode first (see ab-record-proxy.sh). Everything listens on 127.0.0.1.
set -euo pipefail
COUNT=${COUNT:-20000}
SECONDS_PER_RUN=${SECONDS_PER_RUN:-4}
CONNECTIONS=${CONNECTIONS:-4}
# shellcheck source=ab-common.sh
source "$(dirname "$0")/ab-common.sh"

# The cassette, without and with stored rules (the defaults, spelled out: what changes is only that they are stored).
python3 - "$COUNT" "$work" <<'EOF'
import json, sys
count, work = int(sys.argv[1]), sys.argv[2]
def interaction(n):
    return {
        "recordedAt": "2026-11-28T09:10:00.000Z",
        "request": {"method": "GET", "url": f"http://127.0.0.1:4000/items/{n}?view=full",
                    "headers": [["Accept", "application/json"], ["User-Agent", "bench/1"]]},
        "response": {"status": 200, "reason": "OK", "httpVersion": "HTTP/1.1",
                     "headers": [["Content-Type", "application/json"], ["Cache-Control", "no-store"]],
                     "body": {"encoding": "json", "json": {"id": n, "name": f"item {n}", "tags": ["a", "b"], "price": n * 0.25}}},
        "timing": {"nameLookup": 0.0001, "connect": 0.0003, "tlsHandshake": 0, "timeToFirstByte": 0.002, "total": 0.0025},
    }
interactions = [interaction(n) for n in range(count)]
json.dump({"version": 1, "interactions": interactions}, open(f"{work}/plain.json", "w"), indent=2)
json.dump({"version": 3, "replay": {"match": ["method", "url"], "repeats": True, "pacing": 0, "clock": "recorded"},
           "interactions": interactions}, open(f"{work}/rules.json", "w"), indent=2)
with open(f"{work}/paths.lua", "w") as lua:
    lua.write(f"local count = {count}\nlocal n = 0\n")
    lua.write("request = function()\n  n = (n + 1) % count\n  return wrk.format('GET', '/items/' .. n .. '?view=full', "
              "{['Accept'] = 'application/json', ['User-Agent'] = 'bench/1'})\nend\n")
EOF

# convert_seconds BINARY CASSETTE: seconds to read CASSETTE and write it again.
convert_seconds() {
    local started ended
    started=$(date +%s%N)
    "$1" convert "$2" --to cassette -o "$work/out.json" >/dev/null
    ended=$(date +%s%N)
    awk -v ns=$((ended - started)) 'BEGIN { printf "%.4f\n", ns / 1e9 }'
}

# replay_rate BINARY CASSETTE: requests per second `serve` answers (each a recorded path; any other answer fails).
replay_rate() {
    local port=18093 output
    "$1" serve "$2" --port "$port" --allow-playback-repeats >"$work/serve.log" 2>&1 &
    local server=$!
    wait_port "$port"
    output=$(wrk -t "$CONNECTIONS" -c "$CONNECTIONS" -d "${SECONDS_PER_RUN}s" -s "$work/paths.lua" "http://127.0.0.1:$port")
    kill -INT "$server"
    wait "$server" || true
    if grep -q "Non-2xx" <<<"$output"; then
        echo "ab-cassette-cli.sh: $1 answered some recorded requests with another status:" >&2
        echo "$output" >&2
        return 1
    fi
    awk '/^Requests\/sec/ {print $2}' <<<"$output"
}

# compare LABEL KIND X_BINARY X_CASSETTE Y_BINARY Y_CASSETTE: PAIRS interleaved pairs of X and Y; prints each pair
# and the median Y/X ratio (for seconds, above 1 means Y is slower; for requests per second, below 1).
compare() {
    local label=$1 kind=$2 xb=$3 xc=$4 yb=$5 yc=$6 x y
    : >"$work/ratios"
    echo "== $label"
    for pair in $(seq "$PAIRS"); do
        if [ "$(pair_order "$pair")" = ab ]; then
            x=$("$kind" "$xb" "$xc"); y=$("$kind" "$yb" "$yc")
        else
            y=$("$kind" "$yb" "$yc"); x=$("$kind" "$xb" "$xc")
        fi
        awk -v x="$x" -v y="$y" 'BEGIN { printf "%.4f\n", y / x }' >>"$work/ratios"
        printf '  pair %d: %s then %s, ratio %s\n' "$pair" "$x" "$y" "$(tail -1 "$work/ratios")"
    done
    echo "   ratio: $(ratio_summary "$work/ratios")"
}

echo "== $PAIRS pairs each, a cassette of $COUNT GETs; A: $a; B: $b"
compare "load and save, seconds, B/A (no stored rules)" convert_seconds "$a" "$work/plain.json" "$b" "$work/plain.json"
compare "load and save, seconds, B with stored rules / B without" convert_seconds "$b" "$work/plain.json" "$b" "$work/rules.json"
compare "serve replay, requests/s, B/A (no stored rules)" replay_rate "$a" "$work/plain.json" "$b" "$work/plain.json"
compare "serve replay, requests/s, B with stored rules / B without" replay_rate "$b" "$work/plain.json" "$b" "$work/rules.json"
