#!/usr/bin/env bash
# Out of process as in process (sse_graphql.py): servers and clients from PyPI that the project does not otherwise
# use, through `tapedeck record --upstream` and `tapedeck serve`. An SSE stream (uvicorn + sse-starlette, read by
# httpx-sse) must reach the client through the recorder at its live pace and be served at its recorded pace
# (--pacing 1) or at once (--pacing 0); a stateful GraphQL API (strawberry-graphql: queries, mutations, GET, a batch,
# persisted queries) recorded with no --match must store the GraphQL rule and replay 100% right through serve in the
# recorded order, reversed, and reversed with the documents reformatted, answering no request it never recorded.
# The packages are pinned in sse-graphql-requirements.txt and installed once into a virtual environment under .build
# (TAPEDECK_SSE_GRAPHQL_VENV overrides where). Everything runs on 127.0.0.1.
#
#   Tools/Interop/sse-graphql.sh [TAPEDECK]     # default: the debug build's tapedeck, built if missing
#
# Exits 0 when every check passes, 1 when any fails, 2 when the packages could not be installed.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
. "$root/Tools/Interop/common.sh"
run_python_check sse-graphql.sh "${TAPEDECK_SSE_GRAPHQL_VENV:-$root/.build/sse-graphql-venv}" "$root/Tools/Interop/sse-graphql-requirements.txt" \
    "$root/Tools/Interop/sse_graphql.py" 300 "$root" "${1:-}"
