#!/usr/bin/env bash
# Reachability delivery figures (issue F5): how long a status change takes to reach a NetworkReachabilityManager's
# handler, from a SimulatedNetwork transition and from an rtnetlink event on a real kernel; what monitoring costs in
# memory, threads and idle CPU.
#
# Usage: bash Tools/bench/reachability.sh      (COUNT=2000 ROUTE_CHANGES=200 to change the defaults)
#
# The netlink part needs root and iproute2: it builds a private network namespace with a veth pair
# ( 10.201.0.2/24, default route via 10.201.0.1 — no packet is sent anywhere) and runs the helper inside it; the
# helper deletes and re-adds the default route over rtnetlink and times each until the handler reports it.
# The namespace is deleted by an EXIT trap. The script only reports; it exits non-zero only when something fails.
set -euo pipefail

COUNT="${COUNT:-2000}"
ROUTE_CHANGES="${ROUTE_CHANGES:-200}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
package="$here/../Benchmarks"
namespace="tapedeck-bench-reach-$$"
created=""
cleanup() { [[ -n "$created" ]] && ip netns delete "$namespace" 2>/dev/null || true; }
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "building tapedeck-bench-reachability (release)…" >&2
(cd "$package" && swift build -c release --product tapedeck-bench-reachability >&2)
helper="$(cd "$package" && swift build -c release --show-bin-path)/tapedeck-bench-reachability"

echo "== simulated: $COUNT transitions"
"$helper" simulated "$COUNT"

if [[ "$(id -u)" -ne 0 ]] || ! command -v ip >/dev/null; then
    echo "== netlink: skipped (needs root and the ip command from iproute2)"
    exit 0
fi
if ! ip netns add "$namespace" 2>/dev/null; then
    echo "== netlink: skipped (this process may not create network namespaces)"
    exit 0
fi
created=1
ip -n "$namespace" link set lo up
ip -n "$namespace" link add bench0 type veth peer name bench1  # veth: the dummy module may be absent
ip -n "$namespace" link set bench1 up
ip -n "$namespace" address add 10.201.0.2/24 dev bench0
ip -n "$namespace" link set bench0 up
ip -n "$namespace" route add default via 10.201.0.1 dev bench0

echo "== netlink: $ROUTE_CHANGES default-route deletions and additions in namespace $namespace"
time_cmd=()
[[ -x /usr/bin/time ]] && time_cmd=(/usr/bin/time -f "netlink_process_peak_rss_kib=%M")
timeout 120 ip netns exec "$namespace" "${time_cmd[@]}" "$helper" netlink "$ROUTE_CHANGES" bench0 10.201.0.1 2>&1
