# Sourced by the WebSocket comparisons: installs the pinned Python `websockets` peer when it is missing and builds the
# release tapedeck-bench-websocket, whose path it leaves in $bench (the working folder is then Tools/Benchmarks).
websockets_version=17.4
if ! python3 -c "import websockets, sys; sys.exit(websockets.__version__ != '$websockets_version')" 2>/dev/null; then
    python3 -m pip install --quiet "websockets==$websockets_version" 2>/dev/null \
        || python3 -m pip install --quiet --break-system-packages "websockets==$websockets_version"
fi

cd "$root/Tools/Benchmarks"
swift build -c release --product tapedeck-bench-websocket >/dev/null
bench="$(swift build -c release --show-bin-path)/tapedeck-bench-websocket"
