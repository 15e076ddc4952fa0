#!/usr/bin/env bash
# Builds the DocC documentation of every library product with swift-docc-plugin, treating every DocC warning as an
# error, and prints each product's documentation coverage: per kind, the share of public symbols with an abstract (a doc
# comment or a catalog page), curated into a topic, and with a code listing.
# The plugin is a dependency only while TAPEDECK_DOCS is set (see the end of Package.swift).
# Synthesized symbols are left out (--experimental-skip-synthesized-symbols): the members a type inherits from a
# protocol extension of another module (`!=`, `Collection`'s methods on `HTTPHeaders`, `HTTPTransport.send(_:)` on a
# transport) carry no comment of ours and would otherwise make up most of the undocumented share.
# Every target goes to one plugin run: one build of their symbol graphs, and the plugin started once.
#
# Usage: bash Tools/dev/docs.sh [TARGET…]      (default: every library product)
# Archives go to .build/docs/<Target>.doccarchive, the plugin's output to .build/docs/docs.log.
set -euo pipefail
cd "$(dirname "$0")/../.."
targets=("$@")
if [ "${#targets[@]}" -eq 0 ]; then
    targets=(TapedeckCore TapedeckCurl TapedeckCassette TapedeckStubServer TapedeckSession Tapedeck TapedeckTesting
             TapedeckServices TapedeckURLSession TapedeckConformance TapedeckOpenAPI TapedeckWebSocket TapedeckCLICore)
fi
out="$PWD/.build/docs"
mkdir -p "$out"
log="$out/docs.log"
selected=()
for target in "${targets[@]}"; do selected+=(--target "$target"); done
export TAPEDECK_DOCS=1
if ! swift package --allow-writing-to-directory "$out" generate-documentation "${selected[@]}" \
    --output-path "$out" --warnings-as-errors --experimental-skip-synthesized-symbols \
    --experimental-documentation-coverage --coverage-summary-level brief >"$log" 2>&1; then
    grep -E "^(error|warning)|(error|warning):" -A 6 "$log" | head -60 >&2
    echo "error: the documentation has warnings or errors (above; all of it in $log)" >&2
    exit 1
fi
# Each target's coverage table is printed right before the line saying its documentation is finished (the targets are
# built side by side, so other lines come between a target's start and its table).
for target in "${targets[@]}"; do
    echo "== $target"
    awk -v done="Finished building documentation for '$target'" '
        /Experimental coverage output enabled/ { table = ""; next }
        /^ *(Types|Members|Globals) *\||\| Abstract/ { table = table $0 "\n" }
        index($0, done) == 1 { printf "%s", table; exit }' "$log"
done
