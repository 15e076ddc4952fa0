// swift-tools-version: 6.0
import PackageDescription

/// Helper for Tools/bench/pinning-cost.sh: fresh-connection HTTPS requests to a local stub server with and
/// without a SecurityPolicy, to measure what evaluating the policy in the handshake costs.
let package = Package(
    name: "PinningCost",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Tapedeck", path: "../../..")],
    targets: [
        .executableTarget(
            name: "pinning-cost",
            dependencies: [
                .product(name: "Tapedeck", package: "Tapedeck"),
                .product(name: "TapedeckStubServer", package: "Tapedeck"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
