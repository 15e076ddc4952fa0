// swift-tools-version: 6.0
import PackageDescription

/// A minimal XCTest suite showing what LeakSanitizer reports of swift-corelibs-xctest's own runner (see run.sh).
let package = Package(
    name: "XCTestRunnerLeak",
    platforms: [.macOS(.v15)],
    targets: [
        .target(name: "Nothing"),
        .testTarget(name: "RunnerTests", dependencies: ["Nothing"]),
    ]
)
