#!/usr/bin/env bash
# CI's API step (API.md): compares the public API of every library product with the last release's and fails on a
# break that is not announced. The release commit is named in Tools/dev/api-baseline; its API digests (made by
# `swift package diagnose-api-breaking-changes`, one JSON file per module, 7 MB) are kept beside it, compressed, in
# Tools/dev/api-baseline.tar.gz, so CI builds only the tree under test, not the release as well.
# An announced break is a line of Tools/dev/api-breakage-allowlist.txt, as the digester prints it (without the emoji), whose
# declaration the changelog's [Unreleased] section names.
#
#   bash Tools/dev/api-check.sh                  # the tree against the release
#   bash Tools/dev/api-check.sh --regenerate     # make the release's digests (after a release) and pack them
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
baseline=$(tr -d '[:space:]' < Tools/dev/api-baseline)
allowlist=Tools/dev/api-breakage-allowlist.txt
archive=Tools/dev/api-baseline.tar.gz
digests=.build/api-baseline
regenerate=()
[ "${1:-}" = "--regenerate" ] && regenerate=(--regenerate-baseline)
# A shallow clone may lack the release commit: fetch it from where the clone came from.
git cat-file -e "$baseline^{commit}" 2>/dev/null || git fetch --quiet origin "$baseline" 2>/dev/null || true
git cat-file -e "$baseline^{commit}" 2>/dev/null \
    || { echo "api-check: the release commit $baseline (Tools/dev/api-baseline) is not in this clone, nor could it be fetched" >&2; exit 1; }
baseline=$(git rev-parse "$baseline")
rm -rf "$digests" && mkdir -p "$digests"
if [ ${#regenerate[@]} -eq 0 ]; then
    tar -xzf "$archive" -C "$digests"
    [ -d "$digests/$baseline" ] || {
        echo "api-check: $archive holds no digests of $baseline; run bash Tools/dev/api-check.sh --regenerate and commit it" >&2
        exit 1
    }
fi

# Every allowlisted break must be announced: the changelog's [Unreleased] section names its declaration.
unreleased=$(awk '/^## \[Unreleased\]/ { inside = 1; next } /^## \[/ { inside = 0 } inside' CHANGELOG.md)
status=0
while IFS= read -r line; do
    [ -z "$line" ] || [[ $line == \#* ]] && continue
    # "API breakage: func HTTPHeaders.add(name:value:) has been removed" names HTTPHeaders.add.
    name=$(sed -E 's/^API breakage: [a-z]+ ([^ (]+).*/\1/' <<< "$line")
    if ! grep -qF "${name##*.}" <<< "$unreleased"; then
        echo "api-check: $allowlist allows \"$line\", but the changelog's [Unreleased] section does not name ${name##*.}" >&2
        status=1
    fi
done < "$allowlist"
[ $status -eq 0 ] || exit $status

# The digester lists each break as "💔 API breakage: …" and exits non-zero when there is one; a break is allowed
# here, line for line, rather than by the digester's own allowlist option, which SwiftPM 6.3 passes on without
# effect (checked: an allowlisted removal still failed).
set +e
output=$(swift package diagnose-api-breaking-changes "$baseline" --baseline-dir "$digests" "${regenerate[@]}" 2>&1)
digester=$?
set -e
grep -v -e "found 1 file(s) which are unhandled" -e "\.docc$" <<< "$output"
breaks=$(grep -o "API breakage: .*" <<< "$output" | sed 's/[[:space:]]*$//' || true)
if [ $digester -ne 0 ] && [ -z "$breaks" ]; then
    echo "api-check: swift package diagnose-api-breaking-changes failed (exit $digester) without naming a break; see above" >&2
    exit $digester
fi
# Each break not on an allowlist line (with no lines, every break).
unannounced=$(grep -vxF -f <(grep -v -e '^#' -e '^$' "$allowlist" || true) <<< "$breaks" || true)
if [ -n "$unannounced" ]; then
    echo "api-check: API breaks that are not announced (see API.md):" >&2
    sed 's/^/  /' <<< "$unannounced" >&2
    exit 1
fi
[ -z "$breaks" ] || echo "api-check: every break is announced in $allowlist and the changelog"
if [ ${#regenerate[@]} -gt 0 ]; then
    tar --sort=name --owner=0 --group=0 --numeric-owner --mtime='2000-01-01 00:00Z' -C "$digests" -cf - "$baseline" | gzip -9n > "$archive"
    echo "api-check: wrote the digests of $baseline to $archive"
fi
