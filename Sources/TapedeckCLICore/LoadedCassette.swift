import Foundation
import TapedeckCore
import TapedeckCassette

/// A cassette read from disk with the location it came from, so bodies in sidecar files can be read.
///
/// ```swift
/// let loaded = try LoadedCassette.load(path: "Cassettes/login.json")
/// let body = loaded.bodyData(loaded.cassette.interactions[0].request.body)
/// ```
public struct LoadedCassette: Sendable {
    /// The file.
    public var url: URL
    /// Its interactions.
    public var cassette: Cassette

    /// Wraps an already decoded cassette.
    public init(url: URL, cassette: Cassette) {
        self.url = url
        self.cassette = cassette
    }

    /// Reads a cassette (format v1, or HAR 1.2 when the file is a HAR document).
    ///
    /// - Throws: `CassetteError` naming the file and, for invalid JSON, the line and column.
    public static func load(path: String) throws(CassetteError) -> LoadedCassette {
        let url = URL(fileURLWithPath: path)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw CassetteError.io(file: path, operation: "read", reason: "no such file")
        }
        if isHAR(url) {
            let data: Data
            do { data = try InputFile.read(url) } catch { throw CassetteError.io(file: path, operation: "read", reason: error.reason) }
            do {
                return LoadedCassette(url: url, cassette: try HARCodec.import(data))
            } catch {
                if case .invalidHAR(let place, let reason) = error {
                    throw CassetteError.invalidHAR(path: "\(path): \(place)", reason: reason)
                }
                throw error
            }
        }
        return LoadedCassette(url: url, cassette: try CassetteFile.load(url))
    }

    /// Whether `url` is a HAR document: a `.har` extension, or a JSON object whose first key is `log`.
    public static func isHAR(_ url: URL) -> Bool {
        if url.pathExtension.lowercased() == "har" { return true }
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        let prefix = String(decoding: (try? handle.read(upToCount: 64)) ?? Data(), as: UTF8.self)
        let compact = prefix.filter { !$0.isWhitespace }
        return compact.hasPrefix("{\"log\"")
    }

    /// The bytes of a body, reading a sidecar file if needed; empty when the sidecar cannot be read.
    public func bodyData(_ body: CassetteBody) -> Data {
        (try? CassetteFile.bodyData(body, cassette: url)) ?? Data()
    }

    /// A body parsed as JSON, when it is JSON.
    public func json(_ body: CassetteBody) -> CassetteJSON? {
        CassetteJSON.parseBody(bodyData(body))
    }
}
