#!/usr/bin/env bash
# Recording throughput of `tapedeck record` (the reverse recording proxy), build A against build B: an A/B of two
# `tapedeck` binaries (an earlier commit's and this one's) in interleaved pairs. In each run, wrk sends GETs with a
# distinct path each (so no per-request cost hides behind a handful of URLs) over CONNECTIONS keep-alive connections
# for SECONDS_PER_RUN through the recorder to an upstream that both sides share (`tapedeck serve --stubs`, built from B),
# and the recorder then saves the cassette; the figure is requests recorded per second, the cassette's save at the
# end included. Prints each pair and the median of the B/A ratios with min and max (see pairs.sh).
#
#   bash Tools/bench/ab-record-proxy.sh A_TAPEDECK B_TAPEDECK     # PAIRS=7 SECONDS_PER_RUN=5 CONNECTIONS=4
#
# Build the two binaries in release mode first, e.g. for the commit before the relaying recorder:
#   git worktree add /tmp/ab-old b2cb89b && (cd /tmp/ab-old && swift build -c release --product tapedeck)
#   swift build -c release --product tapedeck
# Everything listens on 127.0.0.1.
set -euo pipefail
SECONDS_PER_RUN=${SECONDS_PER_RUN:-5}
CONNECTIONS=${CONNECTIONS:-4}
# shellcheck source=ab-common.sh
source "$(dirname "$0")/ab-common.sh"

# A small JSON answer for every path under /items/.
cat >"$work/stubs.json" <<'EOF'
{"mappings": [{"request": {"method": "GET", "urlPathPattern": "/items/.*"},
               "response": {"status": 200, "headers": {"Content-Type": "application/json"},
                            "body": "{\"id\":1,\"name\":\"an item\",\"tags\":[\"a\",\"b\"]}"}}]}
EOF
# Each request a path of its own: /items/<thread>-<n>.
cat >"$work/distinct.lua" <<'EOF'
local counter = 0
local thread_id = 0
setup = function(thread) thread:set("id", thread_id); thread_id = thread_id + 1 end
init = function() end
request = function()
    counter = counter + 1
    return wrk.format("GET", "/items/" .. id .. "-" .. counter)
end
EOF

upstream_port=18091
"$b" serve --stubs "$work/stubs.json" --stubs-format wiremock --port "$upstream_port" >"$work/upstream.log" 2>&1 &
pids+=($!)
wait_port "$upstream_port"

# run BINARY: one run; prints requests recorded per second (wrk's requests over the time until the cassette is saved).
run() {
    local binary=$1 port=18092 cassette="$work/run.json"
    rm -f "$cassette" "$cassette".*
    "$binary" record --upstream "http://127.0.0.1:$upstream_port" --cassette "$cassette" --listen "127.0.0.1:$port" \
        --mode all >"$work/record.log" 2>&1 &
    local recorder=$!
    wait_port "$port"
    local started ended requests
    started=$(date +%s%N)
    requests=$(wrk -t "$CONNECTIONS" -c "$CONNECTIONS" -d "${SECONDS_PER_RUN}s" -s "$work/distinct.lua" "http://127.0.0.1:$port" \
        | awk '/requests in/ {print $1}')
    kill -INT "$recorder"
    wait "$recorder" || true
    ended=$(date +%s%N)
    local stored
    stored=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['interactions']))" "$cassette")
    # Every request wrk counted (and the one in flight when it stopped, if any) is in the cassette.
    if [ "$stored" -lt "$requests" ]; then
        echo "ab-record-proxy.sh: $binary stored $stored of $requests requests" >&2
        return 1
    fi
    awk -v n="$stored" -v ns=$((ended - started)) 'BEGIN { printf "%.1f\n", n / (ns / 1e9) }'
}

echo "== $PAIRS pairs: recording through tapedeck record, $CONNECTIONS connections, ${SECONDS_PER_RUN}s of distinct GETs each"
echo "== A: $a"
echo "== B: $b"
: >"$work/ratios"
for pair in $(seq "$PAIRS"); do
    if [ "$(pair_order "$pair")" = ab ]; then
        ra=$(run "$a"); rb=$(run "$b")
    else
        rb=$(run "$b"); ra=$(run "$a")
    fi
    awk -v a="$ra" -v b="$rb" 'BEGIN { printf "%.4f\n", b / a }' >>"$work/ratios"
    printf 'pair %d: A %s req/s, B %s req/s, B/A %s\n' "$pair" "$ra" "$rb" "$(tail -1 "$work/ratios")"
done
echo "== B/A recording throughput: $(ratio_summary "$work/ratios")"
