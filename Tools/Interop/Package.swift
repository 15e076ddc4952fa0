// swift-tools-version: 6.0
import PackageDescription

/// Clients from other packages driving Tapedeck's forward proxy, kept out of the main package so that its users
/// never resolve them. Run from the repository: `bash Tools/Interop/run.sh`.
let package = Package(
    name: "TapedeckInterop",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Tapedeck", path: "../.."),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        // For the TLS configuration that trusts the proxy's CA (AsyncHTTPClient takes NIOSSL's) and the body buffer.
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
    ],
    targets: [
        // AsyncHTTPClient configured with the forward proxy records from local upstreams, then replays with them
        // stopped; exits non-zero on any difference.
        .executableTarget(
            name: "InteropAsyncHTTPClient",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "TapedeckCassette", package: "Tapedeck"),
                .product(name: "TapedeckCore", package: "Tapedeck"),
                .product(name: "TapedeckCurl", package: "Tapedeck"),
                .product(name: "TapedeckStubServer", package: "Tapedeck"),
            ]
        ),
        // AsyncHTTPClient's sequential GETs, the peer of Tools/bench's live client comparison.
        .executableTarget(
            name: "interop-bench-ahc",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // The four live clients in one process, interleaved: CurlTransport, HTTPSessionManager, AsyncHTTPClient and
        // URLSession (Tools/bench/four-clients.sh).
        .executableTarget(
            name: "interop-bench-clients",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Tapedeck", package: "Tapedeck"),
                .product(name: "TapedeckCurl", package: "Tapedeck"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
