#!/usr/bin/env bash
# Tapedeck cassettes versus vcrpy (with its C YAML loader) on the same synthetic interactions:
# load and save a 10,000-interaction cassette, and replay requests one by one (requests + vcrpy versus
# CassetteTransport). Prints every time and the ratios; see Tools/bench/README.md.
#
#   bash Tools/bench/compare-vcrpy.sh                 # COUNT=10000 RUNS=5 REQUESTS=2000 by default
set -euo pipefail

COUNT=${COUNT:-10000}
RUNS=${RUNS:-5}
REQUESTS=${REQUESTS:-2000}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BENCH="$ROOT/Tools/Benchmarks"
SCRATCH=${SCRATCH:-$BENCH/.build}
VENV=${VENV:-$ROOT/Tools/bench/.venv-vcrpy}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/tapedeck-vcrpy.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

echo "== building tapedeck-bench-cassette (release)"
swift build -c release --package-path "$BENCH" --scratch-path "$SCRATCH" --product tapedeck-bench-cassette >&2
TOOL="$(swift build -c release --package-path "$BENCH" --scratch-path "$SCRATCH" --show-bin-path)/tapedeck-bench-cassette"

if [ ! -x "$VENV/bin/python" ]; then
    echo "== installing vcrpy, requests and PyYAML from PyPI into $VENV"
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet vcrpy requests pyyaml
fi
"$VENV/bin/python" - <<'PY'
import vcr, yaml
print(f"vcrpy {vcr.__version__}, PyYAML {yaml.__version__}, libyaml C loader: {yaml.__with_libyaml__}")
if not yaml.__with_libyaml__:
    raise SystemExit("PyYAML was built without libyaml: the comparison needs vcrpy's C loader")
PY

echo "== generating $COUNT synthetic interactions"
"$TOOL" generate "$COUNT" "$WORK/tapedeck.json"

"$VENV/bin/python" - "$WORK/tapedeck.json" "$WORK/vcrpy.yaml" "$RUNS" "$REQUESTS" > "$WORK/vcrpy.txt" <<'PY'
# Converts the Tapedeck cassette into a vcrpy cassette (same requests, headers, bodies), then times vcrpy.
import json, sys, time
import requests, vcr
from vcr.persisters.filesystem import FilesystemPersister
from vcr.request import Request
from vcr.serializers import yamlserializer

source, target, runs, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
def text(body):
    if not body: return ""
    if body["encoding"] == "json": return json.dumps(body["json"], separators=(",", ":"))
    return body.get("text", "")
cassette = json.load(open(source))
requests_, responses = [], []
for interaction in cassette["interactions"]:
    rq, rs = interaction["request"], interaction["response"]
    requests_.append(Request(rq["method"], rq["url"], None, {k: v for k, v in rq["headers"]}))
    headers = {}
    for name, value in rs["headers"]: headers.setdefault(name, []).append(value)
    responses.append({"status": {"code": rs["status"], "message": rs["reason"]}, "headers": headers,
                      "body": {"string": text(rs.get("body"))}})
data = {"requests": requests_, "responses": responses}

def best(fn):
    times = []
    for _ in range(runs):
        start = time.perf_counter(); fn(); times.append(time.perf_counter() - start)
    return min(times)

print("save", best(lambda: FilesystemPersister.save_cassette(target, data, yamlserializer)))
loaded = {}
def load(): loaded["value"] = FilesystemPersister.load_cassette(target, yamlserializer)
print("load", best(load))
assert len(loaded["value"][0]) == len(requests_)

urls = [rq["url"] for rq in (i["request"] for i in cassette["interactions"])]
stride = max(1, len(urls) // count)
picked = [urls[i * stride] for i in range(min(count, len(urls)))]
with vcr.use_cassette(target, record_mode="none", serializer="yaml"):
    session = requests.Session()
    start = time.perf_counter()
    for url in picked:
        response = session.get(url, headers={"Accept": "application/json", "User-Agent": "tapedeck-bench/1"})
        assert response.status_code == 200
    print("replay", (time.perf_counter() - start) / len(picked))
PY

"$TOOL" load "$WORK/tapedeck.json" "$RUNS" > "$WORK/tapedeck.txt"
"$TOOL" save "$WORK/tapedeck.json" "$RUNS" >> "$WORK/tapedeck.txt"
"$TOOL" replay "$WORK/tapedeck.json" "$REQUESTS" >> "$WORK/tapedeck.txt"

field() { awk -v key="$2" '$1 == key { print $NF }' "$1"; }
report() {
    local name=$1 vcr=$2 tdk=$3 target=$4 unit=$5 scale=$6
    local ratio verdict
    ratio=$(awk -v a="$vcr" -v b="$tdk" 'BEGIN { printf "%.1f", a / b }')
    verdict=$(awk -v r="$ratio" -v t="$target" 'BEGIN { print (t == "" ? "" : (r >= t ? "PASS" : "MISS")) }')
    printf "%-34s vcrpy %10.3f %s   Tapedeck %10.3f %s   vcrpy/Tapedeck %6sx %s\n" "$name" \
        "$(awk -v v="$vcr" -v s="$scale" 'BEGIN { print v * s }')" "$unit" \
        "$(awk -v v="$tdk" -v s="$scale" 'BEGIN { print v * s }')" "$unit" "$ratio" "${verdict:+(target ≥ ${target}x: $verdict)}"
}
echo
echo "== $COUNT interactions, best of $RUNS runs; replay: $REQUESTS first plays, one request at a time"
report "load cassette" "$(field "$WORK/vcrpy.txt" load)" "$(field "$WORK/tapedeck.txt" load)" 10 ms 1000
report "save cassette" "$(field "$WORK/vcrpy.txt" save)" "$(field "$WORK/tapedeck.txt" save)" 10 ms 1000
report "replay one request" "$(field "$WORK/vcrpy.txt" replay)" "$(field "$WORK/tapedeck.txt" replay)" "" µs 1000000
