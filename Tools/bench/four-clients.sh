#!/usr/bin/env bash
# The four live clients in one process (J4 item 3): CurlTransport alone, HTTPSessionManager over CurlTransport,
# AsyncHTTPClient and URLSession each make COUNT sequential GETs of a 236-byte JSON file that nginx serves on
# loopback (one worker, keep-alive), interleaved over ROUNDS rounds with the order rotated every round. Prints every
# round, the medians (wall and process CPU per GET) and the ratios the targets name, as the median of the rounds'
# ratios with min and max:
#
#   HTTPSessionManager / CurlTransport   ≤ 1.3
#   HTTPSessionManager / AsyncHTTPClient ≤ 1.0
#
#   bash Tools/bench/four-clients.sh                 # COUNT=1000 ROUNDS=7
#
# nginx is installed with apt-get when missing; the benchmark lives in Tools/Interop (AsyncHTTPClient stays out of
# the main package). Reports only: exits 0 whether or not a target is met, non-zero when something fails.
set -euo pipefail
COUNT=${COUNT:-1000}
ROUNDS=${ROUNDS:-7}
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/tapedeck-four-clients.XXXXXX")"
# shellcheck source=nginx.sh
source "$here/nginx.sh"
cleanup() {
    stop_nginx
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# nginx's workers run as an unprivileged user when the script is root: the files must be readable by everyone.
mkdir -p "$work/www"
chmod 755 "$work" "$work/www"
python3 - "$work/www/small.json" <<'PY'
import json, sys
doc = {"id": 7, "name": "tapedeck", "tags": ["record", "replay"], "items": []}
while len(json.dumps(doc, separators=(",", ":"))) < 236:
    doc["items"].append(len(doc["items"]))
text = json.dumps(doc, separators=(",", ":"))
while len(text) > 236:
    doc["name"] = doc["name"][:-1]; text = json.dumps(doc, separators=(",", ":"))
text = text[:-1] + " " * (236 - len(text)) + "}"
open(sys.argv[1], "w").write(text)
PY
chmod 644 "$work/www/small.json"
start_nginx "$work" 1
url="http://127.0.0.1:$nginx_port/small.json"
[[ "$(curl -sf "$url" | wc -c)" -eq 236 ]] || { echo "nginx did not serve $url" >&2; exit 1; }

(cd "$repo/Tools/Interop" && swift build -c release --product interop-bench-clients >&2)
bin="$(cd "$repo/Tools/Interop" && swift build -c release --show-bin-path)/interop-bench-clients"
echo "== $COUNT sequential GETs of a 236-byte JSON file from nginx, four clients in one process, $ROUNDS rounds"
out="$("$bin" "$url" "$COUNT" "$ROUNDS")"
echo "$out"

# verdict NAME PEER TARGET: the median ratio of NAME to PEER against a target it must not exceed.
verdict() {
    local median
    median=$(awk -v pair="$1/$2" '$1 == "ratio" && $2 == pair { print $4 }' <<<"$out")
    if awk -v m="$median" -v t="$3" 'BEGIN { exit !(m <= t) }'; then echo "$1/$2 median $median, target ≤ $3: PASS"
    else echo "$1/$2 median $median, target ≤ $3: MISS"; fi
}
echo
verdict session curl 1.3
verdict session ahc 1.0
