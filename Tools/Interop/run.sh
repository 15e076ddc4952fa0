#!/usr/bin/env bash
# Builds the interop package (AsyncHTTPClient, with Tapedeck by path) and runs its check: AsyncHTTPClient configured
# with Tapedeck's forward proxy records plain and intercepted HTTPS requests from local upstreams, then replays them
# with the upstreams stopped. Then the other tools' files, judged by those tools (pinned from PyPI): the vcrpy
# matrix (vcrpy-matrix.sh), Pact's verifier against a live provider (pact-live.sh), and Schemathesis
# (schemathesis-oai.sh) and openapi-core (openapi-core-oai.sh) against the OpenAPI mock. Then servers and clients from
# PyPI through `record` and `serve` (sse-graphql.sh): an SSE stream at its live and recorded pace, and a GraphQL API
# replayed in order, reversed and reformatted; and MCP sessions (mcp-session.sh), the official MCP Python SDK as server
# and client in both response modes, replayed whole, in part, reversed and twice. Everything runs on 127.0.0.1.
# Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")"
bash ../dev/install-system-packages.sh python3-venv
swift build --product InteropAsyncHTTPClient
"$(swift build --show-bin-path)/InteropAsyncHTTPClient"
bash vcrpy-matrix.sh
bash pact-live.sh
bash schemathesis-oai.sh
bash openapi-core-oai.sh
bash sse-graphql.sh
bash mcp-session.sh
