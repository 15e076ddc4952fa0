// swift-tools-version: 6.0
import PackageDescription

/// A minimal program showing that Foundation's property-list and XML parsers leak the error of a failed parse (see
/// run.sh).
let package = Package(
    name: "FoundationParseErrorLeak",
    platforms: [.macOS(.v15)],
    targets: [.executableTarget(name: "foundation-parse-error-leak")]
)
