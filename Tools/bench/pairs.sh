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
