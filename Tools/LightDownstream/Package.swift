// swift-tools-version: 6.1
import PackageDescription

/// A downstream package that names only Tapedeck's light set (cassettes, the URLSession adapter, the test helpers)
/// with Tapedeck's traits off. `check.sh` builds and tests it where libcurl's and libmicrohttpd's headers cannot be
/// reached, which proves the light set needs neither (nor swift-crypto, which it checks is not built).
let package = Package(
    name: "LightDownstream",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Tapedeck", path: "../..", traits: []),
    ],
    targets: [
        .testTarget(
            name: "LightDownstreamTests",
            dependencies: [
                .product(name: "TapedeckTesting", package: "Tapedeck"),
                .product(name: "TapedeckURLSession", package: "Tapedeck"),
                .product(name: "TapedeckCassette", package: "Tapedeck"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
