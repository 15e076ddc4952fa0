// swift-tools-version: 6.0
import PackageDescription

/// A minimal program showing whether LeakSanitizer sees class references kept in multi-payload enums (see run.sh).
let package = Package(
    name: "EnumPayloadLeak",
    platforms: [.macOS(.v15)],
    targets: [.executableTarget(name: "enum-payload-leak")]
)
