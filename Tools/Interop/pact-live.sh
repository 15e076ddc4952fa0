#!/usr/bin/env bash
# Pact out, judged by Pact's own verifier against the live provider the recording came from (pact_live.py): a
# provider on 127.0.0.1 is recorded through `tapedeck record`, the cassette exported with `tapedeck convert --to
# pact` with --no-matchers and by default (matchers on), and each contract verified by pact-verify.sh (pinned
# pact-python) against the same provider. The recording client (requests) comes from the vcrpy matrix's pinned virtual environment.
#
#   Tools/Interop/pact-live.sh [TAPEDECK]     # default: the debug build's tapedeck, built if missing
#
# Exits 0 when every deterministic interaction passes without matchers and every interaction with them.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
venv="${TAPEDECK_VCRPY_VENV:-$root/.build/vcrpy-venv}"
requirements="$root/Tools/Interop/vcrpy-requirements.txt"
. "$root/Tools/Interop/common.sh"
ensure_venv "$venv" "$requirements"
tapedeck="$(tapedeck_binary "$root" "${1:-}")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$venv/bin/python" "$root/Tools/Interop/pact_live.py" "$tapedeck" "$work"
