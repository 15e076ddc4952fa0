// swift-tools-version: 6.1
import PackageDescription

/// Tapedeck: an AFNetworking-style HTTP client for Swift on Linux over a pluggable transport
/// (live libcurl, cassette record/replay, or an embedded libmicrohttpd stub server).
///
/// Pay for what you use: the light set and the package traits
/// ---------------------------------------------------------------
/// The products TapedeckCore, TapedeckCassette, TapedeckSession, TapedeckURLSession and TapedeckTesting form the
/// light set: Foundation and Swift only, no C system library (no libcurl or libmicrohttpd headers) and no
/// swift-crypto or swift-certificates, when the package is used without its traits:
///
///     .package(url: "…/tapedeck.git", from: "…", traits: [])        // the light set
///     .package(url: "…/tapedeck.git", from: "…")                    // default traits: everything
///
/// Two traits add the heavy parts to TapedeckTesting (the only light product whose API changes with them):
/// - `Curl`: libcurl (`libcurl4-openssl-dev`). `CurlTransport` becomes the default recorder of `.cassette(…)` and
///   `withCassette` (without it, Foundation's URLSession records, through `URLSessionTransport`), and the client
///   stack's `ReachabilitySweep` and `TapedeckTest.currentNetwork` appear.
/// - `StubServer` (implies `Curl`): libmicrohttpd (`libmicrohttpd-dev`), swift-crypto and swift-certificates;
///   the `.stubServer(…)` trait, `withStubServer` and `TapedeckTest.currentStubServer` appear.
/// Both are on by default, so a plain dependency (and this package's own tests and tools) see everything.
/// The other products (TapedeckCurl, TapedeckStubServer, Tapedeck, TapedeckServices, TapedeckOpenAPI,
/// TapedeckConformance, tapedeck) always bring what they need, whatever the traits.
/// Tools/LightDownstream is a package that depends on the light set only; Tools/LightDownstream/check.sh (run by CI)
/// builds it where the libcurl and libmicrohttpd headers cannot be reached.
let package = Package(
    name: "Tapedeck",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "TapedeckCore", targets: ["TapedeckCore"]),
        .library(name: "TapedeckCurl", targets: ["TapedeckCurl"]),
        .library(name: "TapedeckCassette", targets: ["TapedeckCassette"]),
        .library(name: "TapedeckStubServer", targets: ["TapedeckStubServer"]),
        .library(name: "TapedeckSession", targets: ["TapedeckSession"]),
        .library(name: "Tapedeck", targets: ["Tapedeck"]),
        .library(name: "TapedeckTesting", targets: ["TapedeckTesting"]),
        .library(name: "TapedeckServices", targets: ["TapedeckServices"]),
        .library(name: "TapedeckURLSession", targets: ["TapedeckURLSession"]),
        .library(name: "TapedeckConformance", targets: ["TapedeckConformance"]),
        .library(name: "TapedeckOpenAPI", targets: ["TapedeckOpenAPI"]),
        .library(name: "TapedeckWebSocket", targets: ["TapedeckWebSocket"]),
        // The tapedeck command's logic for other tools (VCR import, Pact, lint, diff); Tools/Fuzz fuzzes its VCR reader.
        .library(name: "TapedeckCLICore", targets: ["TapedeckCLICore"]),
        .executable(name: "tapedeck", targets: ["tapedeck"]),
    ],
    traits: [
        .trait(
            name: "Curl",
            description: "TapedeckTesting records through libcurl by default and offers ReachabilitySweep; needs libcurl4-openssl-dev."
        ),
        .trait(
            name: "StubServer",
            description: "TapedeckTesting offers the .stubServer(…) trait and withStubServer; needs libmicrohttpd-dev, brings swift-crypto.",
            enabledTraits: ["Curl"]
        ),
        .default(enabledTraits: ["Curl", "StubServer"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        // The stub server's test certificate authority writes its IP-address names as ASN.1 itself.
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        // OpenAPI documents for TapedeckConformance; external loading (a trait) is not needed.
        .package(url: "https://github.com/mattpolzin/OpenAPIKit.git", from: "6.4.0", traits: []),
        // YAML for `tapedeck convert --from vcr` (TapedeckCLICore) and OpenAPI documents (TapedeckConformance).
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        // Only TapedeckOpenAPI and its tests use these two.
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        .target(name: "TapedeckCore"),
        .target(name: "TapedeckCurl", dependencies: ["CCurl", "TapedeckCore"]),
        .target(name: "TapedeckCassette", dependencies: ["TapedeckCore"]),
        .target(
            name: "TapedeckStubServer",
            dependencies: [
                "CMicroHTTPD", "TapedeckCore", "TapedeckCurl", "TapedeckCassette", "TapedeckWebSocket",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        // What NSURLSession does above the wire (cookies, redirect hops, cache, challenges, retry), once for every door.
        // Digest authentication's hashes are its own (Authentication/Hashing), so the session needs no swift-crypto.
        .target(name: "TapedeckSession", dependencies: ["TapedeckCore"]),
        .target(
            name: "Tapedeck",
            dependencies: [
                "TapedeckCore", "TapedeckSession", "TapedeckCurl",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "X509", package: "swift-certificates"),
            ]
        ),
        .target(name: "TapedeckServices", dependencies: ["Tapedeck", "TapedeckCurl"]),
        .target(name: "TapedeckURLSession", dependencies: ["TapedeckCore", "TapedeckSession"]),
        // YAML composed within limits (size, nesting, alias expansion): the one way the VCR and OpenAPI readers read it.
        .target(name: "TapedeckYAML", dependencies: [.product(name: "Yams", package: "Yams")]),
        .target(
            name: "TapedeckConformance",
            dependencies: [
                "TapedeckCore", "TapedeckCassette", "TapedeckStubServer", "TapedeckYAML",
                .product(name: "OpenAPIKit", package: "OpenAPIKit"),
                .product(name: "OpenAPIKit30", package: "OpenAPIKit"),
                .product(name: "OpenAPIKitCompat", package: "OpenAPIKit"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .target(
            name: "TapedeckOpenAPI",
            dependencies: [
                "TapedeckCore", "TapedeckSession",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        // WebSocket (RFC 6455): framing, the handshake, a client, recording and replay; a product of its own.
        .target(
            name: "TapedeckWebSocket",
            dependencies: ["TapedeckCassette", "TapedeckCore", "TapedeckCurl", .product(name: "Crypto", package: "swift-crypto")]
        ),
        // Light unless the traits above bring libcurl and the stub server in (see the comment at the top).
        .target(
            name: "TapedeckTesting",
            dependencies: [
                "TapedeckCassette", "TapedeckCore", "TapedeckURLSession",
                .target(name: "Tapedeck", condition: .when(traits: ["Curl"])),
                .target(name: "TapedeckCurl", condition: .when(traits: ["Curl"])),
                .target(name: "TapedeckStubServer", condition: .when(traits: ["StubServer"])),
            ]
        ),
        .target(
            name: "TapedeckCLICore",
            dependencies: ["TapedeckCassette", "TapedeckCore", "TapedeckYAML", .product(name: "Yams", package: "Yams")]
        ),
        .executableTarget(
            name: "tapedeck",
            dependencies: [
                "TapedeckCore", "TapedeckCurl", "TapedeckCassette", "TapedeckStubServer", "Tapedeck", "TapedeckCLICore",
                "TapedeckConformance",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Tools/tapedeck"
        ),
        // What the test targets share: helpers, not tests.
        .target(
            name: "TapedeckTestSupport",
            dependencies: [
                "Tapedeck", "TapedeckCore", "TapedeckCassette", "TapedeckSession", "TapedeckStubServer",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Tests/TapedeckTestSupport"
        ),
        // Replays a determinism-suite flow from a cassette in a process of its own (TapedeckCassetteTests'
        // DeterminismTests runs it under another hash seed and a moved clock).
        .executableTarget(
            name: "tapedeck-flow-replay",
            dependencies: ["TapedeckCassette", "TapedeckTestSupport"],
            path: "Tests/FlowReplay"
        ),
        .testTarget(
            name: "TapedeckSessionTests",
            dependencies: ["TapedeckSession", "TapedeckTestSupport"]
        ),
        .testTarget(name: "TapedeckCoreTests", dependencies: ["TapedeckCore", "TapedeckTestSupport"]),
        .testTarget(
            name: "TapedeckCLITests",
            dependencies: ["TapedeckCLICore", "TapedeckCassette", "TapedeckConformance", "TapedeckCurl", "TapedeckStubServer", "TapedeckTestSupport", "TapedeckWebSocket", "tapedeck"],
            exclude: ["Golden", "Fixtures"]
        ),
        .testTarget(
            name: "TapedeckCurlTests",
            dependencies: ["TapedeckCurl", "TapedeckSession", "TapedeckStubServer", "TapedeckTestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "TapedeckStubServerTests",
            dependencies: ["TapedeckStubServer", "TapedeckCassette", "TapedeckCurl", "TapedeckTestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "TapedeckCassetteTests",
            dependencies: ["TapedeckCassette", "TapedeckCurl", "TapedeckSession", "TapedeckStubServer", "TapedeckTestSupport", "TapedeckTesting"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "ContractTests",
            dependencies: [
                "Tapedeck", "TapedeckServices", "TapedeckCassette", "TapedeckStubServer", "TapedeckCurl", "TapedeckTestSupport",
                "TapedeckURLSession", "TapedeckOpenAPI", "tapedeck",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .testTarget(
            name: "TapedeckServicesTests",
            dependencies: ["TapedeckServices", "TapedeckStubServer", "TapedeckCurl", "TapedeckTestSupport", "TapedeckTesting"]
        ),
        .testTarget(
            name: "TapedeckTestingTests",
            dependencies: ["TapedeckTesting", "TapedeckCassette", "TapedeckStubServer", "TapedeckCurl", "TapedeckTestSupport"]
        ),
        .testTarget(
            name: "TapedeckTests",
            dependencies: [
                "Tapedeck", "TapedeckCurl", "TapedeckStubServer", "TapedeckCassette", "TapedeckTesting", "TapedeckTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "TapedeckConformanceTests",
            dependencies: [
                "TapedeckConformance", "TapedeckCassette", "TapedeckCore", "TapedeckCurl", "TapedeckStubServer", "TapedeckTestSupport",
                "TapedeckYAML", .product(name: "OpenAPIKit", package: "OpenAPIKit"),
                .product(name: "OpenAPIKit30", package: "OpenAPIKit"), .product(name: "Yams", package: "Yams"),
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "TapedeckURLSessionTests",
            dependencies: [
                "TapedeckURLSession", "Tapedeck", "TapedeckCassette", "TapedeckCurl", "TapedeckStubServer", "TapedeckTestSupport",
            ]
        ),
        .testTarget(
            name: "TapedeckOpenAPITests",
            dependencies: [
                "TapedeckOpenAPI", "Tapedeck", "TapedeckCassette", "TapedeckCurl", "TapedeckStubServer", "TapedeckTestSupport",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            exclude: ["Fixture"]
        ),
        .testTarget(name: "TapedeckWebSocketTests", dependencies: ["TapedeckWebSocket", "TapedeckCassette", "TapedeckCurl", "TapedeckStubServer", "TapedeckTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

// Documentation (Tools/dev/docs.sh): swift-docc-plugin is added only when TAPEDECK_DOCS is set, so that the package's
// users never resolve it and its own builds never depend on it.
if Context.environment["TAPEDECK_DOCS"] != nil {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin.git", from: "1.5.0"))
}
