// swift-tools-version: 6.1
import PackageDescription

/// Benchmarks for Tapedeck, kept out of the main package so that its users never resolve the benchmark
/// dependencies. Run from this folder: `swift package benchmark`; see Tools/bench/README.md.
let package = Package(
    name: "TapedeckBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Tapedeck", path: "../.."),
        // Only the MallocInterposer trait: the default "RuntimeInterposer" trait would pull
        // ordo-one/swift-runtime-interposer (Swift 6.3 on Linux), which this machine's package mirror lacks.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        // The generated OpenAPI client of `tapedeck-bench-cassette openapi` imports the runtime itself.
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
    ],
    targets: [
        .executableTarget(
            name: "TapedeckBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Tapedeck", package: "Tapedeck"),
                .product(name: "TapedeckCore", package: "Tapedeck"),
                .product(name: "TapedeckCurl", package: "Tapedeck"),
                .product(name: "TapedeckStubServer", package: "Tapedeck"),
            ],
            path: "Benchmarks/TapedeckBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark"),
            ]
        ),
        // Helper for Tools/bench/compare-download.sh and session-transfers.sh: a stub server process and Tapedeck
        // client processes.
        .executableTarget(
            name: "tapedeck-bench-client",
            dependencies: [
                .product(name: "Tapedeck", package: "Tapedeck"),
                .product(name: "TapedeckCore", package: "Tapedeck"),
                .product(name: "TapedeckCurl", package: "Tapedeck"),
            ]
        ),
        .executableTarget(
            name: "tapedeck-bench-download",
            dependencies: [
                .product(name: "TapedeckCore", package: "Tapedeck"),
                .product(name: "TapedeckCurl", package: "Tapedeck"),
                .product(name: "TapedeckStubServer", package: "Tapedeck"),
            ]
        ),
        // Cassette benchmarks (see Tools/bench/README.md): synthetic interactions shared with compare-vcrpy.sh.
        .target(
            name: "CassetteBenchSupport",
            dependencies: [.product(name: "TapedeckCassette", package: "Tapedeck")]
        ),
        .executableTarget(
            name: "CassetteBenchmarks",
            dependencies: [
                "CassetteBenchSupport",
                .product(name: "Tapedeck", package: "Tapedeck"),
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "TapedeckCore", package: "Tapedeck"),
                .product(name: "TapedeckCassette", package: "Tapedeck"),
                .product(name: "TapedeckCurl", package: "Tapedeck"),
                .product(name: "TapedeckStubServer", package: "Tapedeck"),
            ],
            path: "Benchmarks/CassetteBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark"),
            ]
        ),
        // Helper for Tools/bench/compare-vcrpy.sh (generates, loads, saves and replays synthetic cassettes) and
        // compare-recording.sh (recording versus passthrough, interleaved).
        .executableTarget(
            name: "tapedeck-bench-cassette",
            dependencies: [
                "CassetteBenchSupport",
                .product(name: "Tapedeck", package: "Tapedeck"),
                .product(name: "TapedeckCore", package: "Tapedeck"),
                .product(name: "TapedeckCassette", package: "Tapedeck"),
                .product(name: "TapedeckCurl", package: "Tapedeck"),
                .product(name: "TapedeckStubServer", package: "Tapedeck"),
                .product(name: "TapedeckURLSession", package: "Tapedeck"),
                .product(name: "TapedeckOpenAPI", package: "Tapedeck"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ]
        ),
        // What the GraphQL match rule adds to a replayed request (issue H4): `tapedeck-bench-graphql PAIRS ROUNDS`.
        .executableTarget(
            name: "tapedeck-bench-graphql",
            dependencies: ["CassetteBenchSupport", .product(name: "TapedeckCassette", package: "Tapedeck")]
        ),
        // What the JSON-RPC match rule adds to a replayed request (issue J2): `tapedeck-bench-jsonrpc PAIRS ROUNDS`.
        .executableTarget(
            name: "tapedeck-bench-jsonrpc",
            dependencies: ["CassetteBenchSupport", .product(name: "TapedeckCassette", package: "Tapedeck")]
        ),
        // OpenAPI conformance checking throughput (issue G4): `tapedeck-bench-conformance [INTERACTIONS] [ROUNDS]`;
        // `tapedeck-bench-conformance mock [REQUESTS] [PAIRS]`: the OpenAPI mock against a fixed stub over loopback.
        .executableTarget(
            name: "tapedeck-bench-conformance",
            dependencies: [
                .product(name: "TapedeckConformance", package: "Tapedeck"),
                .product(name: "TapedeckCassette", package: "Tapedeck"),
                .product(name: "TapedeckCore", package: "Tapedeck"),
                .product(name: "TapedeckCurl", package: "Tapedeck"),
                .product(name: "TapedeckStubServer", package: "Tapedeck"),
            ]
        ),
        // Helper for Tools/bench/proxy.sh: the forward proxy's HTTPS replay throughput against the stub server's
        // plain HTTP, and the cost of intercepting a new host.
        .executableTarget(
            name: "tapedeck-bench-proxy",
            dependencies: [
                .product(name: "TapedeckCore", package: "Tapedeck"),
                .product(name: "TapedeckCassette", package: "Tapedeck"),
                .product(name: "TapedeckCurl", package: "Tapedeck"),
                .product(name: "TapedeckStubServer", package: "Tapedeck"),
            ]
        ),
        // WebSocket (issue H8): in-process replay of a long conversation, and live echo round trips for
        // Tools/bench/compare-websocket.sh. `tapedeck-bench-websocket replay [MESSAGES] [RUNS]`, `echo URL COUNT`, or
        // `serve COUNT` (the stub server playing a recorded echo conversation).
        .executableTarget(
            name: "tapedeck-bench-websocket",
            dependencies: [
                .product(name: "TapedeckWebSocket", package: "Tapedeck"),
                .product(name: "TapedeckCassette", package: "Tapedeck"),
                .product(name: "TapedeckStubServer", package: "Tapedeck"),
            ]
        ),
        // The fault sweep's budget (issue H3): `tapedeck-bench-sweep [INTERACTIONS] [ROUNDS]`.
        .executableTarget(
            name: "tapedeck-bench-sweep",
            dependencies: [
                "CassetteBenchSupport",
                .product(name: "TapedeckCassette", package: "Tapedeck"),
                .product(name: "TapedeckCore", package: "Tapedeck"),
                .product(name: "TapedeckTesting", package: "Tapedeck"),
            ]
        ),
        // Helper for Tools/bench/reachability.sh: delivery latency of simulated and rtnetlink status changes.
        .executableTarget(
            name: "tapedeck-bench-reachability",
            dependencies: [.product(name: "Tapedeck", package: "Tapedeck")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
