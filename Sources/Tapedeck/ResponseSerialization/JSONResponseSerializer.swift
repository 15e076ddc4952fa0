import Foundation

/// Validates a response and parses its body as JSON into a `JSONValue`: AFNetworking's
/// `AFJSONResponseSerializer`.
///
/// - Accepts `application/json`, `text/json` and `text/javascript` (and status 200–299) by default.
/// - An empty body, or one that is a single space (Rails' `head :ok`), gives `nil` without an error.
/// - A body that is not JSON throws ``ResponseSerializationError/decodingFailed(_:head:data:underlying:)``
///   (-1016) with `JSONSerialization`'s error underneath.
/// - `removesKeysWithNullValues` drops `null` members of objects and `null` elements of arrays, at every depth.
///
/// ```swift
/// var serializer = JSONResponseSerializer(readingOptions: .fragmentsAllowed)
/// serializer.removesKeysWithNullValues = true
/// let json = try serializer.serialize(head: head, data: body)
/// json?["user"]?["name"]?.stringValue
/// ```
public struct JSONResponseSerializer: ValidatingResponseSerializer {
    /// The MIME types accepted by default: `application/json`, `text/json`, `text/javascript`.
    public static let defaultContentTypes: Set<String> = ["application/json", "text/json", "text/javascript"]

    /// The status and content-type rules; default 2xx and ``defaultContentTypes``.
    public var validation: ResponseValidation
    /// Options for `JSONSerialization`, e.g. `.fragmentsAllowed` to accept a top-level string or number.
    public var readingOptions: JSONSerialization.ReadingOptions
    /// Whether to drop `null` values from objects and arrays, recursively. Default `false`.
    public var removesKeysWithNullValues: Bool

    /// Creates a serializer.
    public init(
        readingOptions: JSONSerialization.ReadingOptions = [],
        removesKeysWithNullValues: Bool = false,
        validation: ResponseValidation = ResponseValidation(
            acceptableContentTypes: JSONResponseSerializer.defaultContentTypes
        )
    ) {
        self.readingOptions = readingOptions
        self.removesKeysWithNullValues = removesKeysWithNullValues
        self.validation = validation
    }

    /// Validates, then parses the body; `nil` for an empty or single-space body.
    public func serialize(head: HTTPResponseHead?, data: Data?) throws -> JSONValue? {
        try validation.validate(head: head, data: data)
        guard let data, !data.isEmpty, data != Self.singleSpace else { return nil }
        let value: JSONValue
        do {
            if JSONValueParser.isUTF16or32(data) {
                // Rare enough to leave to Foundation, which detects the encoding.
                let object = try JSONSerialization.jsonObject(with: data, options: readingOptions)
                guard let converted = JSONValue(foundationObject: object) else {
                    throw CocoaError(.propertyListReadCorrupt, userInfo: [
                        NSDebugDescriptionErrorKey: "JSONSerialization produced a value that is not JSON",
                    ])
                }
                value = converted
            } else {
                value = try JSONValueParser.parse(data, allowingFragments: readingOptions.contains(.fragmentsAllowed))
            }
        } catch {
            throw ResponseSerializationError.decodingFailed(.json, head: head, data: data, underlying: error)
        }
        return removesKeysWithNullValues ? value.removingNullValues() : value
    }

    private static let singleSpace = Data(" ".utf8)
}
