#!/usr/bin/env bash
# Verifies a Pact contract (e.g. from `tapedeck convert --to pact`) against a running provider with Pact's reference
# verifier: pact-python, whose pact-python-ffi wheel ships the Rust pact_ffi core, installed with pip at the versions
# in pact-requirements.txt into a virtual environment under .build (TAPEDECK_PACT_VENV overrides where), once.
# Anonymous usage tracking is turned off.
#
#   Tools/Interop/pact-verify.sh CONTRACT BASE_URL PROVIDER
#
# Exits 0 when every interaction is verified, 1 when any fails, 2 when the verifier could not be installed.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
venv="${TAPEDECK_PACT_VENV:-$root/.build/pact-venv}"
requirements="$root/Tools/Interop/pact-requirements.txt"
. "$root/Tools/Interop/common.sh"
if ! ensure_venv "$venv" "$requirements"; then
    echo "pact-verify.sh: could not install pact-python into $venv" >&2
    exit 2
fi
export PACT_DO_NOT_TRACK=true
exec "$venv/bin/python" "$root/Tools/Interop/pact_verify.py" "$@"
