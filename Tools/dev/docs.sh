#!/usr/bin/env bash
# Builds the DocC documentation of every library product with swift-docc-plugin, treating every DocC warning as an
# error, and prints each product's documentation coverage: per kind, the share of public symbols with an abstract (a doc
# comment or a catalog page), curated into a topic, and with a code listing.
# The plugin is a dependency only while TAPEDECK_DOCS is set (see the end of Package.swift).
# Synthesized symbols are left out (--experimental-skip-synthesized-symbols): the members a type inherits from a
# protocol extension of another module (`!=`, `Collection`'s methods on `HTTPHeaders`, `HTTPTransport.send(_:)` on a
# transport) carry no comment of ours and would otherwise make up most of the undocumented share.
#
# Usage: bash Tools/dev/docs.sh [TARGET…]      (default: every library product; archives in .build/docs/<Target>)
set -euo pipefail
cd "$(dirname "$0")/../.."
targets=("$@")
if [ "${#targets[@]}" -eq 0 ]; then
    targets=(TapedeckCore TapedeckCurl TapedeckCassette TapedeckStubServer TapedeckSession Tapedeck TapedeckTesting
             TapedeckServices TapedeckURLSession TapedeckConformance TapedeckOpenAPI TapedeckWebSocket TapedeckCLICore)
fi
out="$PWD/.build/docs"
mkdir -p "$out"
export TAPEDECK_DOCS=1
summary=""
for target in "${targets[@]}"; do
    log="$out/$target.log"
    if ! swift package --allow-writing-to-directory "$out" generate-documentation --target "$target" \
        --output-path "$out/$target" --warnings-as-errors --experimental-skip-synthesized-symbols \
        --experimental-documentation-coverage --coverage-summary-level brief >"$log" 2>&1; then
        grep -E "^(error|warning)" -A 6 "$log" | head -60 >&2
        echo "error: the documentation of $target has warnings or errors (above; all of it in $log)" >&2
        exit 1
    fi
    coverage=$(grep -E "^\s*(Types|Members|Globals)|% |\| Abstract" "$log" | head -8 || true)
    summary+="== $target"$'\n'"$coverage"$'\n'
done
printf '%s' "$summary"
