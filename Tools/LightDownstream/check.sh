#!/usr/bin/env bash
# Builds and tests Tools/LightDownstream, a package that depends only on Tapedeck's light set (traits: []), in a
# private mount namespace where libcurl's and libmicrohttpd's headers and pkg-config files are deleted (an overlay on
# /usr/include and the pkg-config folder; the machine's own files are untouched). A build that reached CCurl or
# CMicroHTTPD would fail there. Then checks that neither C shim nor swift-crypto/swift-certificates was built.
# Needs root (unshare, mount). Usage: bash Tools/LightDownstream/check.sh
set -euo pipefail
script=$(realpath "$0")
cd "$(dirname "$script")"
if [ "${1:-}" != "--inside" ]; then
    # python3 serves the recording test's origin; everything else is the Swift toolchain.
    command -v python3 >/dev/null || bash ../dev/install-system-packages.sh python3
    exec unshare --mount --propagation private bash "$script" --inside
fi

scratch=$(mktemp -d)
mount -t tmpfs tmpfs "$scratch"
hide() {  # hide FOLDER ENTRY...: an overlay on FOLDER without the entries
    local folder=$1; shift
    local layer
    layer="$scratch/$(echo "$folder" | tr / _)"
    mkdir -p "$layer/upper" "$layer/work"
    mount -t overlay overlay -o "lowerdir=$folder,upperdir=$layer/upper,workdir=$layer/work" "$folder"
    for entry in "$@"; do rm -rf "${folder:?}/$entry"; done
}
multiarch=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
hide /usr/include microhttpd.h "$multiarch/curl" curl
[ -d "/usr/lib/$multiarch/pkgconfig" ] && hide "/usr/lib/$multiarch/pkgconfig" libcurl.pc libmicrohttpd.pc
[ -d /usr/share/pkgconfig ] && hide /usr/share/pkgconfig libcurl.pc libmicrohttpd.pc

# The environment really lacks them: a C file that includes either header does not compile, pkg-config finds neither.
for header in curl/curl.h microhttpd.h; do
    if printf '#include <sys/types.h>\n#include <sys/select.h>\n#include <sys/socket.h>\n#include <%s>\n' "$header" \
        | cc -fsyntax-only -x c - 2>/dev/null; then
        echo "error: $header is still reachable; the check would prove nothing" >&2
        exit 1
    fi
done
if command -v pkg-config >/dev/null && pkg-config --exists libcurl libmicrohttpd 2>/dev/null; then
    echo "error: pkg-config still finds libcurl or libmicrohttpd" >&2
    exit 1
fi
echo "== light-downstream: libcurl and libmicrohttpd headers are unreachable here"

server_log=$(mktemp)
python3 -m http.server 0 --bind 127.0.0.1 >"$server_log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
port=""
for _ in $(seq 1 100); do
    port=$(sed -n 's/.*port \([0-9]*\).*/\1/p' "$server_log" | head -1)
    [ -n "$port" ] && break
    sleep 0.1
done
[ -n "$port" ] || { echo "error: python3 -m http.server did not start: $(cat "$server_log")" >&2; exit 1; }

log=$(mktemp)
swift build --build-tests 2>&1 | tee "$log"
# Tapedeck's own files build without warnings in the light configuration too.
root=$(cd ../.. && pwd)
if grep -E "^$root/(Sources|Tools/LightDownstream)/.*warning:" "$log"; then
    echo "error: the light build has warnings in Tapedeck's code (above)" >&2
    exit 1
fi
LIGHT_DOWNSTREAM_ORIGIN="http://127.0.0.1:$port" swift test --skip-build

# Nothing heavy was compiled (SwiftPM makes a folder for every target of the graph; only compiled ones hold objects):
# no C shim, no libcurl or stub-server module, no swift-crypto, no swift-certificates.
bin=$(swift build --show-bin-path)
heavy=""
for module in CCurl CMicroHTTPD TapedeckCurl TapedeckStubServer Tapedeck Crypto CCryptoBoringSSL _CryptoExtras X509 SwiftASN1; do
    if [ -n "$(find "$bin/$module.build" -name '*.o' 2>/dev/null | head -1)" ]; then heavy+="$module "; fi
done
if [ -n "$heavy" ]; then
    echo "error: the light set compiled heavy modules: $heavy" >&2
    exit 1
fi
if [ -z "$(find "$bin/TapedeckTesting.build" -name '*.o' | head -1)" ]; then
    echo "error: TapedeckTesting was not compiled here; the check above would prove nothing" >&2
    exit 1
fi
echo "== light-downstream: built and tested with no C library headers, no swift-crypto, no swift-certificates"
