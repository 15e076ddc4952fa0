#!/usr/bin/env bash
# The main job: build Tapedeck and run `tapedeck demo` (embedded stub server, live transport), all on loopback.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash Tools/dev/install-system-packages.sh
swift build --product tapedeck
exec "$(swift build --show-bin-path)/tapedeck" demo "$@"
