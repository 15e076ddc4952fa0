#!/usr/bin/env bash
# CI's fuzz step: builds tapedeck-fuzz once and runs every target for a bounded time, replaying the committed seeds
# and past crashes (Regressions/) first. Exits non-zero on any crash or failed property.
#   bash Tools/Fuzz/ci.sh            every target for 10 s
#   TAPEDECK_FUZZ_SECONDS=60 bash Tools/Fuzz/ci.sh
set -euo pipefail
started=$SECONDS
status=0
bash "$(dirname "$0")/run.sh" all "${TAPEDECK_FUZZ_SECONDS:-10}" || status=$?
echo "fuzz: build and runs took $((SECONDS - started)) s"
exit $status
