#!/usr/bin/env bash
# Builds Tapedeck with zero warnings allowed in its own code, then runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/../.."
# nghttp2-server provides nghttpd, the HTTP/2 peer of the HTTP/2 tests; iproute2 provides `ip`, with which the
# reachability tests build private network namespaces.
bash Tools/dev/install-system-packages.sh nghttp2-server iproute2

log=$(mktemp)
trap 'rm -f "$log"' EXIT
swift build --build-tests 2>&1 | tee "$log"
# Only Tapedeck's own files count; dependencies' warnings are theirs.
if grep -E "^$PWD/(Sources|Tests|Tools)/.*warning:" "$log"; then
    echo "error: the build has warnings (above); Tapedeck builds with zero warnings." >&2
    exit 1
fi
swift test --skip-build
# Every committed cassette passes the linter (schema, unredacted secrets, high-entropy tokens, unused sidecars).
mapfile -t cassettes < <(find Cassettes -name '*.json' ! -name '*.schema.json' | sort)
if [ "${#cassettes[@]}" -gt 0 ]; then
    "$(swift build --show-bin-path)/tapedeck" lint "${cassettes[@]}"
fi
