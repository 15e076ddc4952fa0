#!/usr/bin/env bash
# MCP sessions through `tapedeck record` and `tapedeck serve` (mcp_session.py), judged by the official MCP Python SDK
# as server and client in both response modes: a whole session, a subset, another order and twice must answer as
# live. The packages are pinned in mcp-requirements.txt and installed once into a virtual environment under .build
# (TAPEDECK_MCP_VENV overrides where). Everything runs on 127.0.0.1.
#
#   Tools/Interop/mcp-session.sh [TAPEDECK]     # default: the debug build's tapedeck, built if missing
#
# Exits 0 when every check passes, 1 when any fails, 2 when the packages could not be installed.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
. "$root/Tools/Interop/common.sh"
run_python_check mcp-session.sh "${TAPEDECK_MCP_VENV:-$root/.build/mcp-venv}" "$root/Tools/Interop/mcp-requirements.txt" \
    "$root/Tools/Interop/mcp_session.py" 600 "$root" "${1:-}"
