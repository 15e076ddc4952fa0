// swift-tools-version: 6.0
import PackageDescription

/// A minimal program showing that each URLSession task leaks libcurl URL-parser allocations on Linux (see run.sh).
let package = Package(
    name: "URLSessionHostLeak",
    platforms: [.macOS(.v15)],
    targets: [.executableTarget(name: "url-session-host-leak")]
)
