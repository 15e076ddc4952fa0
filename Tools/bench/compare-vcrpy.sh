#!/usr/bin/env bash
# Tapedeck cassettes versus vcrpy (with its C YAML loader) on the same synthetic interactions: load and save a
# 10,000-interaction cassette as PAIRS interleaved pairs (at least 7; vcrpy first in odd pairs, Tapedeck first in
# even ones), reported as the median of the pairwise ratios with min and max (see pairs.sh); import vcrpy's file with
# `tapedeck convert --from vcr` (the whole process, against vcrpy's in-process load) the same way; and, for information,
# replaying requests one by one (requests + vcrpy versus CassetteTransport), once. See Tools/bench/README.md.
#
#   bash Tools/bench/compare-vcrpy.sh                 # COUNT=10000 PAIRS=7 REQUESTS=200 by default
#   PARTS=import bash Tools/bench/compare-vcrpy.sh    # only some of: load-save import replay
set -euo pipefail
# shellcheck source=pairs.sh
source "$(dirname "$0")/pairs.sh"

COUNT=${COUNT:-10000}
PARTS=${PARTS:-load-save import replay}
part() { [[ " $PARTS " == *" $1 "* ]]; }
REQUESTS=${REQUESTS:-200}
# shellcheck source=bench-cassette.sh
source "$(dirname "$0")/bench-cassette.sh"
VENV=${VENV:-$ROOT/Tools/bench/.venv-vcrpy}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/tapedeck-vcrpy.XXXXXX")
trap 'rm -rf "$WORK"' EXIT


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

cat >"$WORK/vcrpy_bench.py" <<'PY'
# Converts the Tapedeck cassette into a vcrpy cassette (same requests, headers, bodies) once ("prepare"), then times
# one vcrpy operation per call: "save", "load", or "replay COUNT".
import json, pickle, sys, time
import requests, vcr
from vcr.persisters.filesystem import FilesystemPersister
from vcr.request import Request
from vcr.serializers import yamlserializer

source, target, mode = sys.argv[1], sys.argv[2], sys.argv[3]
def text(body):
    if not body: return ""
    if body["encoding"] == "json": return json.dumps(body["json"], separators=(",", ":"))
    return body.get("text", "")
if mode == "prepare":
    cassette = json.load(open(source))
    requests_, responses = [], []
    for interaction in cassette["interactions"]:
        rq, rs = interaction["request"], interaction["response"]
        requests_.append(Request(rq["method"], rq["url"], None, {k: v for k, v in rq["headers"]}))
        headers = {}
        for name, value in rs["headers"]: headers.setdefault(name, []).append(value)
        responses.append({"status": {"code": rs["status"], "message": rs["reason"]}, "headers": headers,
                          "body": {"string": text(rs.get("body"))}})
    pickle.dump({"requests": requests_, "responses": responses}, open(target + ".pickle", "wb"))
    FilesystemPersister.save_cassette(target, {"requests": requests_, "responses": responses}, yamlserializer)
elif mode == "save":
    data = pickle.load(open(target + ".pickle", "rb"))
    start = time.perf_counter(); FilesystemPersister.save_cassette(target, data, yamlserializer)
    print("save", time.perf_counter() - start)
elif mode == "load":
    start = time.perf_counter(); loaded = FilesystemPersister.load_cassette(target, yamlserializer)
    print("load", time.perf_counter() - start)
    assert len(loaded[0]) > 0
elif mode == "replay":
    count = int(sys.argv[4])
    urls = [i["request"]["url"] for i in json.load(open(source))["interactions"]]
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
"$VENV/bin/python" "$WORK/vcrpy_bench.py" "$WORK/tapedeck.json" "$WORK/vcrpy.yaml" prepare

field() { awk -v key="$2" '$1 == key { print $NF }' <<<"$1"; }
vcrpy() { field "$("$VENV/bin/python" "$WORK/vcrpy_bench.py" "$WORK/tapedeck.json" "$WORK/vcrpy.yaml" "$@")" "$1"; }
tapedeck() { field "$("$TOOL" "$1" "$WORK/tapedeck.json" 1)" "$1"; }

if part load-save; then
echo "== $COUNT interactions, $PAIRS interleaved pairs of load and save"
for pair in $(seq 1 "$PAIRS"); do
    for operation in load save; do
        if [[ "$(pair_order "$pair")" == ab ]]; then
            v=$(vcrpy "$operation"); t=$(tapedeck "$operation")
        else
            t=$(tapedeck "$operation"); v=$(vcrpy "$operation")
        fi
        awk -v v="$v" -v t="$t" 'BEGIN { print v / t }' >>"$WORK/$operation.ratios"
        printf '  pair %d %-4s vcrpy %9.1f ms   Tapedeck %7.1f ms\n' "$pair" "$operation" \
            "$(awk -v x="$v" 'BEGIN { print x * 1000 }')" "$(awk -v x="$t" 'BEGIN { print x * 1000 }')"
    done
done

echo
echo "== vcrpy/Tapedeck, medians of $PAIRS pairs"
for operation in load save; do
    median=$(ratio_median "$WORK/$operation.ratios")
    printf '%-16s %s   target >= 10x: %s\n' "$operation cassette" "$(ratio_summary "$WORK/$operation.ratios")" \
        "$(verdict "$median" ">=" 10)"
done
fi

if part import; then
echo
echo "== importing vcrpy's file: tapedeck convert --from vcr (whole process, release) vs vcrpy loading it (in process)"
echo "== building tapedeck (release, the benchmark package's dependency, in its build folder)" >&2
swift build -c release --package-path "$BENCH" --scratch-path "$SCRATCH" --product tapedeck >&2
CLI="$(swift build -c release --package-path "$BENCH" --scratch-path "$SCRATCH" --show-bin-path)/tapedeck"
# Seconds for one conversion, start-up, YAML parsing, redaction and writing the JSON cassette included.
import_vcr() {
    local start end
    start=$(date +%s.%N)
    "$CLI" convert --from vcr "$WORK/vcrpy.yaml" -o "$WORK/imported.json" 2>/dev/null
    end=$(date +%s.%N)
    awk -v s="$start" -v e="$end" 'BEGIN { print e - s }'
}
for pair in $(seq 1 "$PAIRS"); do
    if [[ "$(pair_order "$pair")" == ab ]]; then
        v=$(vcrpy load); t=$(import_vcr)
    else
        t=$(import_vcr); v=$(vcrpy load)
    fi
    awk -v v="$v" -v t="$t" 'BEGIN { print v / t }' >>"$WORK/import.ratios"
    printf '  pair %d import vcrpy load %9.1f ms   tapedeck convert %7.1f ms\n' "$pair" \
        "$(awk -v x="$v" 'BEGIN { print x * 1000 }')" "$(awk -v x="$t" 'BEGIN { print x * 1000 }')"
done
printf '%-16s %s   target >= 10x: %s\n' "import vcr" "$(ratio_summary "$WORK/import.ratios")" \
    "$(verdict "$(ratio_median "$WORK/import.ratios")" ">=" 10)"
"$VENV/bin/python" - "$WORK/imported.json" "$COUNT" <<'PY'
import json, sys
count = len(json.load(open(sys.argv[1]))["interactions"])
assert count == int(sys.argv[2]), f"the import holds {count} interactions, not {sys.argv[2]}"
print(f"  (the imported cassette holds all {count} interactions)")
PY
fi

if part replay; then
echo
echo "== replay one request (informational, one run each; $REQUESTS first plays, one request at a time)"
v=$(vcrpy replay "$REQUESTS")
t=$(field "$("$TOOL" replay "$WORK/tapedeck.json" "$REQUESTS")" replay)
awk -v v="$v" -v t="$t" 'BEGIN { printf "vcrpy %.1f µs   Tapedeck %.2f µs   vcrpy/Tapedeck %.0fx\n", v * 1e6, t * 1e6, v / t }'
fi
