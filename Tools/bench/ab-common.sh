# Shared by the ab-*.sh scripts (sourced, not run): pairs.sh, the two binaries A and B from the command line, wrk,
# a scratch folder removed on exit, and wait_port.
# shellcheck source=pairs.sh
source "$(dirname "${BASH_SOURCE[0]}")/pairs.sh"
a=${1:?usage: $(basename "$0") A_TAPEDECK B_TAPEDECK}
b=${2:?usage: $(basename "$0") A_TAPEDECK B_TAPEDECK}
for binary in "$a" "$b"; do
    [ -x "$binary" ] || { echo "$(basename "$0"): $binary is not an executable" >&2; exit 2; }
done
command -v wrk >/dev/null || bash "$(dirname "${BASH_SOURCE[0]}")/../dev/install-system-packages.sh" wrk
work=$(mktemp -d)
# Processes to stop on exit (a script appends their pids).
pids=()
cleanup() {
    [ "${#pids[@]}" -eq 0 ] || kill "${pids[@]}" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

# wait_port PORT: until something answers on 127.0.0.1:PORT (at most 30 s).
wait_port() {
    for _ in $(seq 300); do
        curl -s -o /dev/null "http://127.0.0.1:$1/" && return 0
        sleep 0.1
    done
    echo "$(basename "$0"): nothing listens on 127.0.0.1:$1" >&2
    return 1
}
