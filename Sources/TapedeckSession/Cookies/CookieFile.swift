import Foundation
import TapedeckCore

/// The cookie file: versioned JSON, keys sorted, times as ISO 8601 UTC with milliseconds.
///
/// ```json
/// {
///   "cookies" : [
///     { "created" : "2026-01-01T00:00:00.000Z", "domain" : "example.com", "expires" : "2026-02-01T00:00:00.000Z",
///       "hostOnly" : false, "httpOnly" : true, "lastAccessed" : "2026-01-01T00:00:00.000Z", "name" : "id",
///       "path" : "/", "sameSite" : "Lax", "secure" : true, "value" : "a3fWa" }
///   ],
///   "format" : "tapedeck-cookies",
///   "version" : 1
/// }
/// ```
struct CookieFile: Codable {
    static let formatName = "tapedeck-cookies"
    static let currentVersion = 1

    var format: String
    var version: Int
    var cookies: [Cookie]

    /// The two fields read before the rest, so that a newer version is reported as such rather than as corrupt.
    private struct Header: Decodable {
        var format: String
        var version: Int
    }

    static func encode(_ cookies: [Cookie]) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(Timestamp.format(date))
        }
        return try encoder.encode(CookieFile(format: formatName, version: currentVersion, cookies: cookies))
    }

    /// Decodes and checks `data`, read from `path`; every problem is a ``CookieStoreError`` naming the field.
    static func decode(_ data: Data, path: String) throws(CookieStoreError) -> [Cookie] {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = Timestamp.parse(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "\"\(text)\" is not an ISO 8601 UTC timestamp")
            }
            return date
        }
        let file: CookieFile
        do {
            let header = try decoder.decode(Header.self, from: data)
            guard header.format == formatName else {
                throw CookieStoreError.corruptFile(
                    path: path, field: "format", reason: "\"\(header.format)\" is not \"\(formatName)\"")
            }
            guard header.version == currentVersion else {
                throw CookieStoreError.unsupportedVersion(path: path, version: header.version)
            }
            file = try decoder.decode(CookieFile.self, from: data)
        } catch let error as CookieStoreError {
            throw error
        } catch let error as DecodingError {
            throw .corruptFile(path: path, field: error.place, reason: error.reason)
        } catch {
            throw .corruptFile(path: path, field: "", reason: "\(error)")
        }
        for (position, cookie) in file.cookies.enumerated() {
            if let (field, reason) = problem(in: cookie) {
                throw .corruptFile(path: path, field: "cookies[\(position)].\(field)", reason: reason)
            }
        }
        return file.cookies.map { cookie in
            var cookie = cookie
            cookie.domain = CookieHost.canonicalDomain(cookie.domain)
            return cookie
        }
    }

    /// The first field of `cookie` that a store could not hold, and why.
    private static func problem(in cookie: Cookie) -> (field: String, reason: String)? {
        if cookie.name.isEmpty { return ("name", "is empty") }
        if SetCookieHeader.hasControlCharacter(cookie.name[...]) { return ("name", "contains a control character") }
        if SetCookieHeader.hasControlCharacter(cookie.value[...]) { return ("value", "contains a control character") }
        if CookieHost.canonicalDomain(cookie.domain).isEmpty { return ("domain", "is empty") }
        if cookie.path.utf8.first != UInt8(ascii: "/") { return ("path", "\"\(cookie.path)\" does not start with /") }
        return nil
    }

    /// Writes `data` to `url` atomically (`AtomicFile`): a temporary file in the same directory, then `rename(2)`
    /// over the target, so a reader sees the old file or the new one, never half of one. A missing directory is
    /// not created.
    static func writeAtomically(_ data: Data, to url: URL) throws(CookieStoreError) {
        do {
            try AtomicFile.write(data, to: url, creatingDirectory: false)
        } catch {
            let reason = error.operation == "write" ? error.reason : "could not \(error.operation): \(error.reason)"
            throw .unwritableFile(path: url.path(percentEncoded: false), reason: reason)
        }
    }
}
