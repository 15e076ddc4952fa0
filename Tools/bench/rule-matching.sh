#!/usr/bin/env bash
# What a body-reading match rule adds to a replayed request, in process on CassettePlayer (target: at most 2 µs for a
# 2 KB body), in PAIRS interleaved pairs (at least 7) of ROUNDS rounds each; prints each pair and the median with min
# and max of the added µs and of the ratio:
#   graphql (issue 30): 50 GraphQL POSTs of 2 KB documents to one URL, method+URL against method+URL+graphQL(), with
#           the bytes as recorded and laid out anew (every request read and normalized);
#   jsonrpc (issue J2): 50 JSON-RPC calls of 2 KB to one URL, method+URL against method+URL+jsonRPC(), with the bytes
#           as recorded, with other ids (what every new session sends) and laid out anew (every body read).
#
#   bash Tools/bench/rule-matching.sh graphql|jsonrpc              # PAIRS=9 ROUNDS=200
set -euo pipefail
rule=${1:?usage: rule-matching.sh graphql|jsonrpc}
case "$rule" in graphql|jsonrpc) ;; *) echo "usage: rule-matching.sh graphql|jsonrpc" >&2; exit 2 ;; esac
PAIRS=${PAIRS:-9}
# shellcheck source=pairs.sh
source "$(dirname "$0")/pairs.sh"
ROUNDS=${ROUNDS:-200}
# shellcheck source=release-product.sh
source "$(dirname "$0")/release-product.sh"
"$(release_product "tapedeck-bench-$rule")" "$PAIRS" "$ROUNDS"
