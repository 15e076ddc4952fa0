// swift-tools-version: 6.0
import PackageDescription

/// A downstream test suite: a package that uses Tapedeck the way a team's own tests do, built and run with plain
/// `swift test --sanitize=thread` (no Tapedeck-specific flag), so that any ThreadSanitizer report from Tapedeck's code
/// shows up here as it would in theirs. Run from the repository: `bash Tools/Sanitizers/Downstream/run.sh`.
let package = Package(
    name: "TapedeckDownstream",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Tapedeck", path: "../../..")],
    targets: [
        .testTarget(
            name: "DownstreamTests",
            dependencies: [
                .product(name: "Tapedeck", package: "Tapedeck"),
                .product(name: "TapedeckCassette", package: "Tapedeck"),
                .product(name: "TapedeckCurl", package: "Tapedeck"),
                .product(name: "TapedeckStubServer", package: "Tapedeck"),
                .product(name: "TapedeckURLSession", package: "Tapedeck"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
