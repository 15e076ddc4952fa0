# Shared by the cassette scripts (sourced, not run): builds tapedeck-bench-cassette in release mode and sets `ROOT`
# (the repository), `BENCH` (Tools/Benchmarks) and `TOOL` (the binary). SCRATCH relocates the build folder.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BENCH="$ROOT/Tools/Benchmarks"
SCRATCH=${SCRATCH:-$BENCH/.build}
echo "== building tapedeck-bench-cassette (release)"
swift build -c release --package-path "$BENCH" --scratch-path "$SCRATCH" --product tapedeck-bench-cassette >&2
TOOL="$(swift build -c release --package-path "$BENCH" --scratch-path "$SCRATCH" --show-bin-path)/tapedeck-bench-cassette"
