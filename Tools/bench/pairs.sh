# Shared by the compare-*.sh scripts (sourced, not run): the arithmetic of interleaved pairs.
#
# A comparison with a peer runs the two sides as pairs, A then B, then B then A, and so on, so that drift in the
# machine's speed (2-3x between runs on a small shared VM) hits both sides of a pair alike; each pair gives one
# ratio, and the comparison is the MEDIAN of those ratios, with the min and max beside it. A best-of figure of each
# side would measure the machine's best moment, not the code.

# PAIRS: how many pairs a comparison runs (at least 7).
PAIRS="${PAIRS:-7}"
if ((PAIRS < 7)); then
    echo "PAIRS=$PAIRS: a comparison needs at least 7 interleaved pairs" >&2
    exit 2
fi

# pair_order N: "ab" for odd pairs, "ba" for even ones.
pair_order() { (($1 % 2 == 1)) && echo ab || echo ba; }

# ratio_summary FILE: "median M (min A, max B, N pairs)" of the numbers in FILE, one per line.
ratio_summary() {
    sort -g "$1" | awk '{ v[NR] = $1 } END {
        if (NR == 0) { print "no pairs"; exit 1 }
        median = (NR % 2 == 1) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
        printf "median %.3f (min %.3f, max %.3f, %d pairs)\n", median, v[1], v[NR], NR
    }'
}

# ratio_median FILE: the median alone, for a verdict.
ratio_median() {
    sort -g "$1" | awk '{ v[NR] = $1 } END { print (NR % 2 == 1) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# verdict VALUE OP TARGET: PASS or MISS, OP one of <= or >=.
verdict() {
    awk -v v="$1" -v op="$2" -v t="$3" 'BEGIN { ok = (op == "<=") ? (v <= t) : (v >= t); print ok ? "PASS" : "MISS" }'
}

# round_trip_pairs WORK COUNT LABEL_A LABEL_B: PAIRS interleaved pairs of the caller's `run a` and `run b`, each
# printing "seconds cpu_seconds" of COUNT round trips. Writes WORK/ratios (b's seconds / a's), WORK/cpu-a and
# WORK/cpu-b (microseconds of CPU a round trip) and prints each pair's microseconds a round trip.
round_trip_pairs() {
    local work=$1 count=$2 pair a b wall_a cpu_a wall_b cpu_b
    : >"$work/ratios"
    : >"$work/cpu-a"
    : >"$work/cpu-b"
    for pair in $(seq "$PAIRS"); do
        if [ "$(pair_order "$pair")" = ab ]; then a=$(run a); b=$(run b); else b=$(run b); a=$(run a); fi
        read -r wall_a cpu_a <<<"$a"
        read -r wall_b cpu_b <<<"$b"
        awk -v a="$wall_a" -v b="$wall_b" 'BEGIN { printf "%.4f\n", b / a }' >>"$work/ratios"
        awk -v c="$cpu_a" -v n="$count" 'BEGIN { printf "%.2f\n", c / n * 1e6 }' >>"$work/cpu-a"
        awk -v c="$cpu_b" -v n="$count" 'BEGIN { printf "%.2f\n", c / n * 1e6 }' >>"$work/cpu-b"
        printf 'pair %d: %s %.1f us/rt, %s %.1f us/rt\n' "$pair" "$3" "$(awk -v s="$wall_a" -v n="$count" 'BEGIN { print s / n * 1e6 }')" \
            "$4" "$(awk -v s="$wall_b" -v n="$count" 'BEGIN { print s / n * 1e6 }')"
    done
}
