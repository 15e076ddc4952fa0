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
. "$root/Tools/Interop/common.sh"
if ! ensure_venv "$venv" "$requirements"; then
    echo "vcrpy-matrix.sh: could not install vcrpy into $venv" >&2
    exit 2
fi
tapedeck="$(tapedeck_binary "$root" "${1:-}")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$venv/bin/python" "$root/Tools/Interop/vcrpy_matrix.py" "$tapedeck" "$work"
