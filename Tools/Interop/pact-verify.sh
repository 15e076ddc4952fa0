#!/usr/bin/env bash
# Verifies a Pact contract (e.g. from `tapedeck convert --to pact`) against a running provider with Pact's reference
# verifier: pact-python 3 or later, whose wheel ships the Rust pact_ffi core, installed with pip into a virtual
# environment under .build (TAPEDECK_PACT_VENV overrides where). Anonymous usage tracking is turned off.
#
#   Tools/Interop/pact-verify.sh CONTRACT BASE_URL PROVIDER
#
# Exits 0 when every interaction is verified, 1 when any fails, 2 when the verifier could not be installed.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
venv="${TAPEDECK_PACT_VENV:-$root/.build/pact-venv}"
if ! "$venv/bin/python" -c 'import pact' 2>/dev/null; then
    if ! { python3 -m venv "$venv" && "$venv/bin/pip" install --quiet --disable-pip-version-check 'pact-python>=3,<5'; } >&2; then
        echo "pact-verify.sh: could not install pact-python into $venv" >&2
        exit 2
    fi
fi
export PACT_DO_NOT_TRACK=true
exec "$venv/bin/python" "$root/Tools/Interop/pact_verify.py" "$@"
