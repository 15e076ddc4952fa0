// swift-tools-version: 6.0
import PackageDescription

/// libFuzzer targets for Tapedeck's parsers, kept out of the main package like the benchmarks. One executable,
/// `tapedeck-fuzz`, holds every target; `TAPEDECK_FUZZ_TARGET` picks one. Build and run with
/// `Tools/Fuzz/run.sh TARGET SECONDS`: it builds with `--sanitize fuzzer --sanitize address` in debug, where the
/// parent package is compiled with testing enabled so that the targets reach internal parsers.
let package = Package(
    name: "TapedeckFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Tapedeck", path: "../.."),
    ],
    targets: [
        // The targets: one function per parser, from fuzzer bytes to the parser and the checks on its result.
        .target(
            name: "FuzzTargets",
            dependencies: [
                .product(name: "Tapedeck", package: "Tapedeck"),
                .product(name: "TapedeckSession", package: "Tapedeck"),
                .product(name: "TapedeckCore", package: "Tapedeck"),
                .product(name: "TapedeckCurl", package: "Tapedeck"),
                .product(name: "TapedeckCassette", package: "Tapedeck"),
                .product(name: "TapedeckStubServer", package: "Tapedeck"),
                .product(name: "TapedeckConformance", package: "Tapedeck"),
                .product(name: "TapedeckWebSocket", package: "Tapedeck"),
                .product(name: "TapedeckCLICore", package: "Tapedeck"),
            ]
        ),
        // libFuzzer's entry points (`LLVMFuzzerInitialize`, `LLVMFuzzerTestOneInput`); libFuzzer supplies `main`.
        // Linked with lld: gold, the Linux default, keeps the coverage counters of only some object files, and
        // libFuzzer then sees no coverage from Tapedeck's modules at all.
        .executableTarget(
            name: "tapedeck-fuzz",
            dependencies: ["FuzzTargets"],
            linkerSettings: [.unsafeFlags(["-use-ld=lld"])]
        ),
    ],
    swiftLanguageModes: [.v6]
)
