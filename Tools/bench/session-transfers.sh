#!/usr/bin/env bash
# 1 GiB through the client stack: a SessionManager download task (moved to its destination), a SessionManager
# upload task streaming a file, and an HTTPSessionManager multipart POST of the same file. Each client runs in its
# own process under GNU `/usr/bin/time`, so the peak RSS printed is the client's alone; the stub server runs in
# another process on 127.0.0.1. Target (issue F2): peak RSS <= 64 MiB for each.
#
# Usage: bash Tools/bench/session-transfers.sh        (RUNS=3 to repeat; the worst RSS and best time are reported)
set -euo pipefail

RUNS="${RUNS:-1}"
TARGET_RSS_MIB=64
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
package="$here/../Benchmarks"
# shellcheck source=bench-server.sh
source "$here/bench-server.sh"

work="$(mktemp -d "${TMPDIR:-/tmp}/tapedeck-session.XXXXXX")"
# Files go to tmpfs when it has room (the comparison is about the client, not the disk).
if [[ -z "${DOWNLOAD_DIR:-}" ]] && [[ -d /dev/shm ]] && (($(df -Pk /dev/shm | awk 'NR == 2 { print $4 }') > 3 * 1048576)); then
    DOWNLOAD_DIR=/dev/shm
fi
files="$(mktemp -d "${DOWNLOAD_DIR:-$work}/tapedeck-session-files.XXXXXX")"
cleanup() {
    rm -rf "$files"
    stop_bench_server
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

install_gnu_time

build_bench_helpers

start_bench_server

upload="$files/upload.bin"
head -c $((1 << 30)) /dev/urandom >"$upload"

# run NAME ARGS...: one client process; appends "seconds rss_kib" to $work/NAME.results.
run() {
    local name="$1"; shift
    TMPDIR="$files" /usr/bin/time -f %M -o "$work/time" "$client" "$@" >"$work/out"
    local seconds
    seconds=$(sed -n 's/.*seconds=\([0-9.e+-]*\).*/\1/p' "$work/out")
    echo "$seconds $(tail -n 1 "$work/time")" >>"$work/$name.results"
    printf '  %-18s %s (peak RSS %s KiB)\n' "$name" "$(cat "$work/out")" "$(tail -n 1 "$work/time")"
}

for i in $(seq 1 "$RUNS"); do
    echo "run $i:"
    run download session-download "http://127.0.0.1:$port/big" "$files/downloaded.bin"
    rm -f "$files/downloaded.bin"
    run upload session-upload "http://127.0.0.1:$port/upload" "$upload"
    run multipart session-multipart "http://127.0.0.1:$port/upload" "$upload"
done

printf '\n%-22s %10s %14s %8s\n' "1 GiB through" "MiB/s" "peak RSS MiB" "target"
for name in download upload multipart; do
    awk -v name="$name" -v target="$TARGET_RSS_MIB" '
        NR == 1 || $1 < best { best = $1 } NR == 1 || $2 > rss { rss = $2 }
        END { printf "%-22s %10.1f %14.1f %8s\n", "session " name, 1024 / best, rss / 1024, (rss / 1024 <= target ? "PASS" : "MISS") }
    ' "$work/$name.results"
done
