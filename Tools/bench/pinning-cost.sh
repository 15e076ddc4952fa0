#!/usr/bin/env bash
# What evaluating a SecurityPolicy during the TLS handshake costs (issue F5): fresh-connection HTTPS requests
# (`Connection: close`, so every request is a full handshake) from CurlTransport to a local HTTPS stub server,
# with no policy (libcurl's own verification), the default policy evaluated by Tapedeck, public-key pinning and
# certificate pinning. Prints the median and p90 TLS handshake time (appconnect - connect) and the difference
# from no policy. Loopback only.
#
# Usage: bash Tools/bench/pinning-cost.sh [requests per mode, default 200]     (CONFIG=debug for a debug build)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
package="$here/pinning-cost"
config="${CONFIG:-release}"
echo "building pinning-cost ($config)…" >&2
(cd "$package" && swift build -c "$config" --product pinning-cost >&2)
"$(cd "$package" && swift build -c "$config" --show-bin-path)/pinning-cost" "${1:-200}"
