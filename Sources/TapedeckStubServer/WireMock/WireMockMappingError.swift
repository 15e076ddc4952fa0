import TapedeckCore

/// Why a WireMock stub mapping could not become a ``Stub``: which file and mapping, where in it (a JSON path from
/// the document's root, such as `mappings[2].response.transformers`), and what is wrong or unsupported there.
///
/// ```swift
/// do { _ = try WireMockMappings.stubs(from: data) } catch { print(error) }
/// // invalid WireMock mapping at mappings[2].response.transformers (mapping "get user"): response transformers
/// // (response templating included) are not supported
/// ```
public struct WireMockMappingError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The file the mapping came from, when read from a file or directory.
    public var file: String?
    /// The JSON path of what is wrong, from the document's root: `mappings[2].request.url`, `[0].response` for an
    /// array, `request.url` for a document holding one mapping, `$` for the document itself.
    public var location: String
    /// The mapping's `name`, when it has one.
    public var name: String?
    /// What is wrong.
    public var reason: String

    /// Creates an error; a `location` longer than 320 characters or a `name` longer than 80 (from a damaged file) is
    /// cut short.
    public init(file: String? = nil, location: String, name: String? = nil, reason: String) {
        self.file = file
        self.location = Shown.truncated(location, limit: 4 * Shown.limit)
        self.name = name.map { Shown.truncated($0) }
        self.reason = reason
    }

    /// `invalid WireMock mapping in FILE at LOCATION (mapping "NAME"): REASON`.
    public var description: String {
        "invalid WireMock mapping" + (file.map { " in \($0)" } ?? "") + " at \(location)"
            + (name.map { " (mapping \"\($0)\")" } ?? "") + ": \(reason)"
    }
}
