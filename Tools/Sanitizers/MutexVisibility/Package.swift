// swift-tools-version: 6.0
import PackageDescription

/// A minimal program showing whether ThreadSanitizer sees `Synchronization.Mutex` (see run.sh).
let package = Package(
    name: "MutexVisibility",
    platforms: [.macOS(.v15)],
    targets: [.executableTarget(name: "mutex-visibility")]
)
