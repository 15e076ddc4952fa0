#!/usr/bin/env bash
# Schemathesis (pinned in schemathesis-requirements.txt, installed once into a virtual environment under .build;
# TAPEDECK_SCHEMATHESIS_VENV overrides where) against `tapedeck serve --openapi` on the OpenAPI Initiative's example
# documents in OpenAPIExamples/ (schemathesis_oai.py). Everything runs on 127.0.0.1.
#
#   Tools/Interop/schemathesis-oai.sh [TAPEDECK]     # default: the debug build's tapedeck, built if missing
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
venv="${TAPEDECK_SCHEMATHESIS_VENV:-$root/.build/schemathesis-venv}"
. "$root/Tools/Interop/common.sh"
ensure_venv "$venv" "$root/Tools/Interop/schemathesis-requirements.txt"
tapedeck="$(tapedeck_binary "$root" "${1:-}")"
export SCHEMATHESIS_TELEMETRY=false
"$venv/bin/python" "$root/Tools/Interop/schemathesis_oai.py" "$tapedeck" "$venv/bin/schemathesis" "$root"/Tools/Interop/OpenAPIExamples/*.yaml
