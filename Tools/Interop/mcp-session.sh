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
venv="${TAPEDECK_MCP_VENV:-$root/.build/mcp-venv}"
. "$root/Tools/Interop/common.sh"
if ! ensure_venv "$venv" "$root/Tools/Interop/mcp-requirements.txt"; then
    echo "mcp-session.sh: could not install the pinned packages into $venv" >&2
    exit 2
fi
tapedeck="$(tapedeck_binary "$root" "${1:-}")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
timeout 600 "$venv/bin/python" -u "$root/Tools/Interop/mcp_session.py" "$tapedeck" "$work"
