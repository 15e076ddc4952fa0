#!/usr/bin/env bash
# What the light set saves a downstream package (issue 30): a clean debug build (`swift build --build-tests`) of
# Tools/LightDownstream's test target, which names TapedeckTesting, TapedeckURLSession and TapedeckCassette, with
# Tapedeck's traits off (`traits: []`, the light set) and on (the default: libcurl, the stub server, swift-crypto,
# swift-certificates). Both copies resolve their dependencies once beforehand; each build then starts from an empty
# build folder. Interleaved pairs (see pairs.sh); prints each side's median seconds and the median ratio full/light.
#
# Usage: bash Tools/bench/downstream-build.sh        (PAIRS=7 by default; needs libcurl and libmicrohttpd headers
#                                                     for the full side: bash Tools/dev/install-system-packages.sh)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/pairs.sh"
root="$(cd "$here/../.." && pwd)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for side in light full; do
    mkdir -p "$work/$side"
    cp -r "$root/Tools/LightDownstream/Package.swift" "$root/Tools/LightDownstream/Tests" "$root/Tools/LightDownstream/Cassettes" "$work/$side/"
    sed -i "s|path: \"../..\"|path: \"$root\"|" "$work/$side/Package.swift"
done
sed -i 's|, traits: \[\])|)|' "$work/full/Package.swift"
grep -q 'traits: \[\]' "$work/light/Package.swift" && ! grep -q 'traits:' "$work/full/Package.swift" \
    || { echo "error: could not make the two manifests" >&2; exit 1; }
for side in light full; do (cd "$work/$side" && swift package resolve >/dev/null); done

build() {  # build SIDE: seconds of a clean debug build of the test target
    local folder="$work/$1"
    rm -rf "$folder/.build/x86_64-unknown-linux-gnu" "$folder/.build/debug" "$folder/.build/plugins"
    local started ended
    started=$(date +%s.%N)
    (cd "$folder" && swift build --build-tests >"$work/$1.log" 2>&1) || { tail -20 "$work/$1.log" >&2; exit 1; }
    ended=$(date +%s.%N)
    echo "$ended - $started" | bc
}

ratios="$work/ratios"; light_times="$work/light.times"; full_times="$work/full.times"
: >"$ratios"; : >"$light_times"; : >"$full_times"
for pair in $(seq 1 "$PAIRS"); do
    if [ "$(pair_order "$pair")" = ab ]; then
        light=$(build light); full=$(build full)
    else
        full=$(build full); light=$(build light)
    fi
    echo "$light" >>"$light_times"; echo "$full" >>"$full_times"
    echo "$full / $light" | bc -l >>"$ratios"
    printf 'pair %d: light %.1f s, full %.1f s\n' "$pair" "$light" "$full"
done
median() { sort -g "$1" | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.1f s (min %.1f, max %.1f)", m, v[1], v[NR] }'; }
echo "light set (traits: []): $(median "$light_times")"
echo "full set (default traits): $(median "$full_times")"
echo "full / light: $(ratio_summary "$ratios")"
light_median=$(sort -g "$light_times" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
echo "target: light build <= 40 s: $(verdict "$light_median" "<=" 40)"
