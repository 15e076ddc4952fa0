#!/usr/bin/env bash
# The black-box mutation sweep of the CLI (Tests/TapedeckCLITests/CLIMutationSweepTests.swift), run large against
# the release `tapedeck`:
#
#   bash Tools/dev/cli-sweep.sh N [SEED]    N damaged inputs, each through every verb that reads its kind
#
# Environment: JOBS (inputs at once, default the number of cores), TIME_LIMIT (seconds before a run counts as a
# hang, default 10), FIRST (the first input's number, default 0, to run one input again: FIRST=k with N=1).
# Prints the counts per class, per verb, per input kind and per mutation; copies every input that crashed, hung or
# was refused unclearly, with its command and output, to .build/cli-sweep/findings. Exits non-zero when there is one.
set -euo pipefail
cd "$(dirname "$0")/../.."
inputs=${1:?usage: cli-sweep.sh N [SEED]}
seed=${2:-1}
swift build -c release --product tapedeck
swift build --build-tests
out=.build/cli-sweep
rm -rf "$out"
mkdir -p "$out"
status=0
TAPEDECK_SWEEP_BINARY="$PWD/.build/release/tapedeck" TAPEDECK_SWEEP_INPUTS="$inputs" TAPEDECK_SWEEP_SEED="$seed" \
TAPEDECK_SWEEP_FIRST="${FIRST:-0}" TAPEDECK_SWEEP_RUNS=100000000 TAPEDECK_SWEEP_BUDGET=86400 \
TAPEDECK_SWEEP_JOBS="${JOBS:-$(nproc)}" TAPEDECK_SWEEP_TIME_LIMIT="${TIME_LIMIT:-10}" \
TAPEDECK_SWEEP_KEEP="$PWD/$out/findings" TAPEDECK_SWEEP_REPORT="$PWD/$out/report.txt" \
    swift test --skip-build --filter 'CLIMutationSweepTests/noDamagedInputCrashesHangsOrIsRefusedUnclearly' >"$out/test.log" 2>&1 || status=$?
cat "$out/report.txt" 2>/dev/null || { cat "$out/test.log"; exit 1; }
[ "$status" -eq 0 ] || echo "the sweep failed; inputs and their output: $out/findings (test log: $out/test.log)" >&2
exit "$status"
