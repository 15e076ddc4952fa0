// swift-tools-version: 6.0
import PackageDescription

/// A minimal program showing that reading an empty file with `Data(contentsOf:)` leaks its read buffer (see run.sh).
let package = Package(
    name: "EmptyFileReadLeak",
    platforms: [.macOS(.v15)],
    targets: [.executableTarget(name: "empty-file-read-leak")]
)
