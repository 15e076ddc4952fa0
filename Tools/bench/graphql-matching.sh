#!/usr/bin/env bash
# What the GraphQL match rule adds to a replayed request (issue H4, target: at most 2 µs for a 2 KB query), in
# process on CassettePlayer: 50 GraphQL POSTs of 2 KB documents to one URL replayed in order by a player matching on
# method+URL and by one matching on method+URL+graphQL(), in PAIRS interleaved pairs (at least 7) of ROUNDS rounds
# each; once with the bytes as recorded and once with the operations laid out anew (every request read and
# normalized). Prints each pair and the median with min and max of the added µs and of the ratio.
#
#   bash Tools/bench/graphql-matching.sh              # PAIRS=9 ROUNDS=200
set -euo pipefail
PAIRS=${PAIRS:-9}
# shellcheck source=pairs.sh
source "$(dirname "$0")/pairs.sh"
ROUNDS=${ROUNDS:-200}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BENCH="$ROOT/Tools/Benchmarks"
SCRATCH=${SCRATCH:-$BENCH/.build}
echo "== building tapedeck-bench-graphql (release)"
swift build -c release --package-path "$BENCH" --scratch-path "$SCRATCH" --product tapedeck-bench-graphql >&2
"$(swift build -c release --package-path "$BENCH" --scratch-path "$SCRATCH" --show-bin-path)/tapedeck-bench-graphql" "$PAIRS" "$ROUNDS"
