#!/usr/bin/env bash
# Regenerates the Swift clients made by swift-openapi-generator 1.14.3 (types and client, internal access) that
# Tapedeck commits, so that nothing runs the generator plugin; run this after changing a document and commit both:
#   Tests/TapedeckOpenAPITests/Fixture/openapi.yaml -> Tests/TapedeckOpenAPITests/Generated (the tests' client)
#   Tools/Benchmarks/OpenAPI/items.yaml -> Tools/Benchmarks/Sources/tapedeck-bench-cassette/Generated (the benchmark's)
#
# The generator's command-line tool is built in a scratch package outside the repository (default
# ${TMPDIR:-/tmp}/tapedeck-openapi-generator; set TAPEDECK_OPENAPI_GENERATOR_DIR to choose), so Tapedeck's own
# package never depends on the generator. The first build takes several minutes.
set -euo pipefail

version=1.14.3
root="$(cd "$(dirname "$0")/../.." && pwd)"
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

generate() { # DOCUMENT OUTPUT-DIRECTORY
    mkdir -p "$2"
    rm -f "$2"/*.swift
    "$generator" generate \
        --mode types --mode client \
        --access-modifier internal \
        --naming-strategy idiomatic \
        --output-directory "$2" \
        "$1"
    echo "Wrote $(cd "$2" && ls -1 | tr '\n' ' ')to $2" >&2
}

generate "$root/Tests/TapedeckOpenAPITests/Fixture/openapi.yaml" "$root/Tests/TapedeckOpenAPITests/Generated"
generate "$root/Tools/Benchmarks/OpenAPI/items.yaml" "$root/Tools/Benchmarks/Sources/tapedeck-bench-cassette/Generated"
