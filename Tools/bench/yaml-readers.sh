#!/usr/bin/env bash
# Tapedeck's two YAML readers, one build against another, in interleaved pairs (pairs.sh): `verify --openapi` of a
# 1.4 MB block-YAML OpenAPI document (200 operations with long descriptions, synthetic-openapi.py) with an empty
# cassette, and `convert --from vcr` of a vcrpy-shaped cassette of 5,000 interactions (about 2.6 MB). Each line is
# the median of the pairwise ratios of wall time BASELINE/TAPEDECK (above 1: TAPEDECK is faster) with min and max.
# Build both first: swift build -c release --product tapedeck
#
#   PAIRS=21 bash Tools/bench/yaml-readers.sh TAPEDECK BASELINE
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
source "$root/Tools/bench/pairs.sh"
tapedeck="$1"
baseline="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

python3 "$root/Tools/bench/synthetic-openapi.py" 200 "$work/api.yaml" 190
echo '{"version": 1, "interactions": []}' >"$work/empty.json"
python3 - "$work/vcr.yaml" <<'PY'
import sys
with open(sys.argv[1], "w") as out:
    out.write("interactions:\n")
    for i in range(5000):
        out.write(f"""- request:
    body: '{{"id": {i}, "name": "item {i}"}}'
    headers:
      Accept:
      - application/json
      Content-Type:
      - application/json
      User-Agent:
      - python-requests/2.32.3
    method: POST
    uri: http://127.0.0.1:8080/items/{i}?expand=owner
  response:
    body:
      string: '{{"id": {i}, "name": "item {i}", "tags": ["a", "b", "c"], "owner": {{"id": "u{i}"}}}}'
    headers:
      Content-Type:
      - application/json
      Date:
      - Mon, 23 Nov 2026 14:31:32 GMT
    status:
      code: 200
      message: OK
""")
    out.write("version: 1\n")
PY

# milliseconds BINARY VERB…: the wall time of one run, in milliseconds.
milliseconds() {
    local binary=$1 started
    shift
    started=$(date +%s%N)
    "$binary" "$@" >/dev/null 2>&1 || [ "$1" = verify ]   # verify exits 1: no interaction covers the document
    echo $(( ($(date +%s%N) - started) / 1000000 ))
}

# compare LABEL VERB…: PAIRS interleaved pairs of the two builds running VERB…
compare() {
    local label=$1 pair t b
    shift
    : >"$work/ratios"
    for pair in $(seq "$PAIRS"); do
        if [ "$(pair_order "$pair")" = ab ]; then
            b=$(milliseconds "$baseline" "$@"); t=$(milliseconds "$tapedeck" "$@")
        else
            t=$(milliseconds "$tapedeck" "$@"); b=$(milliseconds "$baseline" "$@")
        fi
        awk -v b="$b" -v t="$t" 'BEGIN { printf "%.4f\n", b / (t > 0 ? t : 1) }' >>"$work/ratios"
        printf '  pair %d %s: baseline %d ms, tapedeck %d ms\n' "$pair" "$label" "$b" "$t"
    done
    printf '%-22s baseline/tapedeck %s\n' "$label" "$(ratio_summary "$work/ratios")"
}

compare "verify --openapi YAML" verify --openapi "$work/api.yaml" "$work/empty.json"
compare "convert --from vcr" convert --from vcr "$work/vcr.yaml" -o "$work/out.json"
