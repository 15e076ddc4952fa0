#!/usr/bin/env bash
# Makes a release version: writes VERSION (MAJOR.MINOR.PATCH) into the one place the code reads it
# (Sources/TapedeckCore/TapedeckVersion.swift), the README's and the getting-started article's dependency lines and
# the User-Agent examples in the docs, and turns the changelog's [Unreleased] section into [VERSION] - today, with a
# fresh empty [Unreleased] above it. VersionTests checks that they agree. API.md says which part of the version to bump.
#
#   bash Tools/dev/bump-version.sh 1.1.0
set -euo pipefail
new=${1:?usage: bump-version.sh MAJOR.MINOR.PATCH}
[[ $new =~ ^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$ ]] || { echo "bump-version.sh: \"$new\" is not MAJOR.MINOR.PATCH" >&2; exit 2; }
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
source_file=Sources/TapedeckCore/TapedeckVersion.swift
old=$(sed -n 's/^    public static let current = "\(.*\)"$/\1/p' "$source_file")
[[ -n $old ]] || { echo "bump-version.sh: no version literal in $source_file" >&2; exit 1; }
[[ $old != "$new" ]] || { echo "bump-version.sh: the version is $new already" >&2; exit 1; }
grep -q '^## \[Unreleased\]' CHANGELOG.md || { echo "bump-version.sh: CHANGELOG.md has no [Unreleased] section" >&2; exit 1; }

escaped=${old//./\\.}
sed -i "s/$escaped/$new/g" "$source_file"
sed -i "s/tapedeck\.git\", from: \"$escaped\"/tapedeck.git\", from: \"$new\"/" README.md Sources/TapedeckTesting/TapedeckTesting.docc/GettingStarted.md
sed -i "s/^Tapedeck is at version $escaped /Tapedeck is at version $new /" README.md
sed -i "s/Tapedeck\/$escaped (/Tapedeck\/$new (/g" Sources/Tapedeck/RequestSerialization/HTTPRequestSerializer*.swift
# The [Unreleased] entries become the release's; "Nothing yet." placeholders go.
python3 - "$new" "$(date -u +%Y-%m-%d)" <<'PY'
import sys
version, day = sys.argv[1], sys.argv[2]
text = open("CHANGELOG.md").read()
head, rest = text.split("## [Unreleased]\n", 1)
body, sep, tail = rest.partition("\n## [")
body = body.replace("\nNothing yet.\n", "\n")
open("CHANGELOG.md", "w").write(head + "## [Unreleased]\n\nNothing yet.\n\n## [" + version + "] - " + day + "\n" + body.rstrip("\n") + "\n" + sep + tail)
PY
echo "version $old -> $new; review CHANGELOG.md's [$new] section, then run VersionTests"
