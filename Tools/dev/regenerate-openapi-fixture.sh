#!/usr/bin/env bash
# Regenerates the Swift client that TapedeckOpenAPITests run, from Tests/TapedeckOpenAPITests/Fixture/openapi.yaml,
# with swift-openapi-generator 1.14.3 (types and client, internal access). The generated files are committed, so
# the tests never run the generator plugin; run this after changing the document and commit both.
#
# The generator's command-line tool is built in a scratch package outside the repository (default
# ${TMPDIR:-/tmp}/tapedeck-openapi-generator; set TAPEDECK_OPENAPI_GENERATOR_DIR to choose), so Tapedeck's own
# package never depends on the generator. The first build takes several minutes.
set -euo pipefail

version=1.14.3
root="$(cd "$(dirname "$0")/../.." && pwd)"
fixture="$root/Tests/TapedeckOpenAPITests/Fixture"
output="$root/Tests/TapedeckOpenAPITests/Generated"
scratch="${TAPEDECK_OPENAPI_GENERATOR_DIR:-${TMPDIR:-/tmp}/tapedeck-openapi-generator}"

mkdir -p "$scratch"
cat > "$scratch/Package.swift" <<MANIFEST
// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "tapedeck-openapi-generator",
    dependencies: [.package(url: "https://github.com/apple/swift-openapi-generator", exact: "$version")],
    targets: []
)
MANIFEST
echo "Building swift-openapi-generator $version in $scratch" >&2
swift build --package-path "$scratch" --product swift-openapi-generator >&2
generator="$(swift build --package-path "$scratch" --show-bin-path)/swift-openapi-generator"

mkdir -p "$output"
rm -f "$output"/*.swift
"$generator" generate \
    --mode types --mode client \
    --access-modifier internal \
    --naming-strategy idiomatic \
    --output-directory "$output" \
    "$fixture/openapi.yaml"
echo "Wrote $(cd "$output" && ls -1 | tr '\n' ' ')to $output" >&2
