// swift-tools-version: 6.0
import PackageDescription

/// A minimal program showing what ThreadSanitizer sees of a continuation resumed before its task suspends (run.sh).
let package = Package(
    name: "ContinuationFastPath",
    platforms: [.macOS(.v15)],
    targets: [.executableTarget(name: "continuation-fast-path")]
)
