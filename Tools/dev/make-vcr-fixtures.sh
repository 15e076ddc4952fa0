#!/usr/bin/env bash
# Re-records the vcrpy fixture cassettes in Tests/TapedeckCLITests/Fixtures/VCR with real vcrpy from PyPI against a
# loopback server (see make-vcr-fixtures.py). The ports in the recorded URLs change on every run; the tests that read
# the fixtures compare everything else.
#
#   bash Tools/dev/make-vcr-fixtures.sh            # VENV=… reuses a virtual environment
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
VENV=${VENV:-$ROOT/Tools/bench/.venv-vcrpy}
if [ ! -x "$VENV/bin/python" ]; then
    echo "== installing vcrpy and requests from PyPI (Tools/Interop/vcrpy-requirements.txt) into $VENV"
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet -r "$ROOT/Tools/Interop/vcrpy-requirements.txt"
fi
"$VENV/bin/python" -c 'import vcr, requests; print(f"vcrpy {vcr.__version__}, requests {requests.__version__}")'
"$VENV/bin/python" "$ROOT/Tools/dev/make-vcr-fixtures.py" "$ROOT/Tests/TapedeckCLITests/Fixtures/VCR"
