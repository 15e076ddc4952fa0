#!/usr/bin/env bash
# The vcrpy matrix (vcrpy_matrix.py): real vcrpy cassettes from requests, urllib and httpx × gzip, deflate and
# identity × decode_compressed_response off and on, converted by `tapedeck convert --from vcr`, replayed through
# `tapedeck fetch` and `tapedeck serve`, and compared with vcrpy's own playback. vcrpy and the clients come from
# PyPI at the versions in vcrpy-requirements.txt, installed once into a virtual environment under .build
# (TAPEDECK_VCRPY_VENV overrides where). Everything runs on 127.0.0.1.
#
#   Tools/Interop/vcrpy-matrix.sh [TAPEDECK]     # default: the debug build's tapedeck, built if missing
#
# Exits 0 when every cassette replays as vcrpy plays it back, 1 when any differs, 2 when vcrpy could not be installed.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
venv="${TAPEDECK_VCRPY_VENV:-$root/.build/vcrpy-venv}"
requirements="$root/Tools/Interop/vcrpy-requirements.txt"
stamp="$venv/.requirements"
if ! cmp -s "$requirements" "$stamp" 2>/dev/null; then
    if ! { python3 -m venv "$venv" && "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$requirements" \
           && cp "$requirements" "$stamp"; } >&2; then
        echo "vcrpy-matrix.sh: could not install vcrpy into $venv" >&2
        exit 2
    fi
fi
tapedeck="${1:-}"
if [ -z "$tapedeck" ]; then
    (cd "$root" && swift build --product tapedeck >&2)
    tapedeck="$(cd "$root" && swift build --show-bin-path)/tapedeck"
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$venv/bin/python" "$root/Tools/Interop/vcrpy_matrix.py" "$tapedeck" "$work"
