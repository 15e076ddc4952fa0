# Shared by the scripts that run one executable of Tools/Benchmarks (sourced, not run): `release_product NAME` builds
# it in release mode (its build output to stderr) and prints its path. SCRATCH relocates the build folder.
release_product() {
    local root bench scratch
    root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
    bench="$root/Tools/Benchmarks"
    scratch=${SCRATCH:-$bench/.build}
    echo "== building $1 (release)" >&2
    swift build -c release --package-path "$bench" --scratch-path "$scratch" --product "$1" >&2
    echo "$(swift build -c release --package-path "$bench" --scratch-path "$scratch" --show-bin-path)/$1"
}
