# Shared by compare-download.sh and session-transfers.sh (sourced, not run): GNU time, the two release helpers of
# Tools/Benchmarks, and the stub-server process they measure clients against. Expects `package` (the
# Tools/Benchmarks folder) and `work` (a scratch folder) to be set; sets `server`, `client`, `server_pid` and `port`.

# install_gnu_time: GNU /usr/bin/time (peak RSS of a process), installed with apt-get when missing.
install_gnu_time() {
    [[ -x /usr/bin/time ]] && return
    echo "installing GNU time (for peak RSS)…" >&2
    local sudo_cmd=()
    [[ "$(id -u)" -ne 0 ]] && sudo_cmd=(sudo)
    "${sudo_cmd[@]}" apt-get install -y time >/dev/null || {
        "${sudo_cmd[@]}" apt-get update >/dev/null && "${sudo_cmd[@]}" apt-get install -y time >/dev/null
    }
}

# build_bench_helpers: the server (tapedeck-bench-download) and the client-only binary (tapedeck-bench-client).
# The client is linked with the Swift runtime and Foundation statically (`--static-swift-stdlib`, in its own
# .build-static folder), as a Swift program is usually deployed on Linux: its start-up then does not spend ~8 ms
# loading and relocating the Swift shared libraries, which the curl binary it is compared with does not have.
build_bench_helpers() {
    echo "building tapedeck-bench-download and tapedeck-bench-client (release; the client statically linked)…" >&2
    (cd "$package" && swift build -c release --product tapedeck-bench-download >&2 \
        && swift build -c release --static-swift-stdlib --scratch-path .build-static --product tapedeck-bench-client >&2)
    server="$(cd "$package" && swift build -c release --show-bin-path)/tapedeck-bench-download"
    client="$(cd "$package" && swift build -c release --static-swift-stdlib --scratch-path .build-static --show-bin-path)/tapedeck-bench-client"
}

# start_bench_server: starts the server on 127.0.0.1 and waits for its port. Its stdin is a FIFO held open on fd 3,
# so when the calling script ends (even by SIGKILL) the server reads end of file and exits.
start_bench_server() {
    mkfifo "$work/server.stdin"
    "$server" serve <"$work/server.stdin" >"$work/server.out" 2>"$work/server.err" &
    server_pid=$!
    exec 3>"$work/server.stdin"
    for _ in $(seq 1 100); do
        [[ -s "$work/server.out" ]] && break
        kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.err" >&2; exit 1; }
        sleep 0.1
    done
    port="$(head -n 1 "$work/server.out")"
    [[ "$port" =~ ^[0-9]+$ ]] || { echo "server printed no port" >&2; cat "$work/server.err" >&2; exit 1; }
}

# stop_bench_server: closes the server's stdin and waits for it (for the scripts' EXIT traps).
stop_bench_server() {
    exec 3>&- 2>/dev/null || true
    if [[ -n "${server_pid:-}" ]] && kill -0 "$server_pid" 2>/dev/null; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
}
