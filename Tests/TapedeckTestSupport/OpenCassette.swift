import Foundation
import TapedeckCassette
import TapedeckCore

/// A cassette transport that ignores the ambient `TAPEDECK_RECORD_MODE`, so a test behaves the same in any shell.
///
/// ```swift
/// let recorder = try openCassette(directory.cassette(), mode: .once, upstream: CurlTransport())
/// ```
public func openCassette(
    _ url: URL, mode: RecordMode, upstream: (any HTTPTransport)? = nil,
    configuration: CassetteConfiguration = CassetteConfiguration()
) throws -> CassetteTransport {
    try CassetteTransport(cassette: url, mode: mode, upstream: upstream, configuration: configuration, environment: [:])
}
