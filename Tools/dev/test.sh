#!/usr/bin/env bash
# Builds Tapedeck with zero warnings allowed in its own code, then runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/../.."
# nghttp2-server provides nghttpd, the HTTP/2 peer of the HTTP/2 tests; iproute2 provides `ip`, with which the
# reachability tests build private network namespaces.
bash Tools/dev/install-system-packages.sh nghttp2-server iproute2 faketime
# Python `requests` is one of the clients that drive the forward proxy (ForwardProxyInteropTests), with the python3
# on PATH; pip refuses a system Python's site-packages unless told it may.
if ! command -v python3 >/dev/null; then
    bash Tools/dev/install-system-packages.sh python3 python3-requests
elif ! python3 -c 'import requests' 2>/dev/null; then
    python3 -m pip --version >/dev/null 2>&1 || bash Tools/dev/install-system-packages.sh python3-pip
    python3 -m pip install --quiet requests 2>/dev/null || python3 -m pip install --quiet --break-system-packages requests
fi
# Python `websockets` (pinned) is the peer of the WebSocket differential tests (TapedeckWebSocketTests).
websockets_version=17.4
if ! python3 -c "import websockets, sys; sys.exit(websockets.__version__ != '$websockets_version')" 2>/dev/null; then
    python3 -m pip --version >/dev/null 2>&1 || bash Tools/dev/install-system-packages.sh python3-pip
    python3 -m pip install --quiet "websockets==$websockets_version" 2>/dev/null \
        || python3 -m pip install --quiet --break-system-packages "websockets==$websockets_version"
fi
# Python `jsonpath-rfc9535` (pinned) is the peer of the JSON path differential test (JSONPathDifferentialTests).
jsonpath_version=1.0.1
if ! python3 -c "import importlib.metadata, sys; sys.exit(importlib.metadata.version('jsonpath-rfc9535') != '$jsonpath_version')" 2>/dev/null; then
    python3 -m pip --version >/dev/null 2>&1 || bash Tools/dev/install-system-packages.sh python3-pip
    python3 -m pip install --quiet "jsonpath-rfc9535==$jsonpath_version" 2>/dev/null \
        || python3 -m pip install --quiet --break-system-packages "jsonpath-rfc9535==$jsonpath_version"
fi
# Pact's reference verifier (PactVerifierTests, Tools/Interop/pact-verify.sh) installs into a virtual environment,
# which Debian's python3 makes only with python3-venv (its ensurepip).
python3 -c 'import ensurepip' 2>/dev/null || bash Tools/dev/install-system-packages.sh python3-venv

log=$(mktemp)
trap 'rm -f "$log"' EXIT
swift build --build-tests 2>&1 | tee "$log"
# Only Tapedeck's own files count; dependencies' warnings are theirs (SwiftPM silences them). A warning inside a macro's
# expansion (`#expect(try …)`) is reported as "macro expansion #expect:…" without a file, so it counts too.
if grep -E "^($PWD/(Sources|Tests|Tools)/.*|macro expansion [^:]*:[0-9]+:[0-9]+: )warning:" "$log"; then
    echo "error: the build has warnings (above); Tapedeck builds with zero warnings." >&2
    exit 1
fi
# Two suites run on their own after the rest, so that the suite's other tests (child processes, live servers) do not
# share the two cores with them: ServerFaultTests holds 1,000 connections and a slow-loris client against a time limit
# (a load test), and URLSessionTransportTests drives FoundationNetworking's URLSession, whose one shared transfer
# thread, starved by the rest of the suite, let a 0.3 s totalTimeout pass unnoticed for 30 s.
swift test --skip-build --skip ServerFaultTests --skip URLSessionTransportTests
swift test --skip-build --filter ServerFaultTests
swift test --skip-build --filter URLSessionTransportTests
# Every committed cassette passes the linter (schema, unredacted secrets, high-entropy tokens, unused sidecars).
mapfile -t cassettes < <(find Cassettes -name '*.json' ! -name '*.schema.json' | sort)
if [ "${#cassettes[@]}" -gt 0 ]; then
    "$(swift build --show-bin-path)/tapedeck" lint "${cassettes[@]}"
fi
