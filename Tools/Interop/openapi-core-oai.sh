#!/usr/bin/env bash
# openapi-core (pinned in openapi-core-requirements.txt, installed once into a virtual environment under .build;
# TAPEDECK_OPENAPI_CORE_VENV overrides where) judges every answer `tapedeck serve --openapi` gives to valid requests,
# on the OpenAPI Initiative's example documents in OpenAPIExamples/ (openapi_core_oai.py). Everything runs on 127.0.0.1.
#
#   Tools/Interop/openapi-core-oai.sh [TAPEDECK]     # default: the debug build's tapedeck, built if missing
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
venv="${TAPEDECK_OPENAPI_CORE_VENV:-$root/.build/openapi-core-venv}"
. "$root/Tools/Interop/common.sh"
ensure_venv "$venv" "$root/Tools/Interop/openapi-core-requirements.txt"
tapedeck="$(tapedeck_binary "$root" "${1:-}")"
"$venv/bin/python" "$root/Tools/Interop/openapi_core_oai.py" "$tapedeck" "$root"/Tools/Interop/OpenAPIExamples/*.yaml
