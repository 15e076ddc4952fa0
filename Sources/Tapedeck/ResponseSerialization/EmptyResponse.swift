/// A type that has a value for a response without a body, so ``DecodableResponseSerializer`` can produce one for a
/// 204, a 205 or a reply to `HEAD` instead of failing.
///
/// ```swift
/// struct Ack: Decodable, Sendable, EmptyResponseDecodable {
///     static var emptyResponseValue: Ack { Ack() }
/// }
/// ```
public protocol EmptyResponseDecodable {
    /// The value for an empty body.
    static var emptyResponseValue: Self { get }
}

/// A value that decodes from any body, including none: use it with ``DecodableResponseSerializer`` when a reply
/// carries nothing worth reading.
///
/// ```swift
/// let serializer = DecodableResponseSerializer(EmptyResponse.self)
/// _ = try serializer.serialize(head: noContentHead, data: nil)  // EmptyResponse()
/// ```
public struct EmptyResponse: Codable, Sendable, Hashable, EmptyResponseDecodable {
    /// The empty value.
    public static var emptyResponseValue: EmptyResponse { EmptyResponse() }

    /// Creates the empty value.
    public init() {}

    /// Decodes from any JSON, ignoring its content.
    public init(from decoder: any Decoder) throws {}

    /// Encodes an empty JSON object.
    public func encode(to encoder: any Encoder) throws {
        _ = encoder.container(keyedBy: EmptyCodingKey.self)
    }

    private struct EmptyCodingKey: CodingKey {
        var stringValue: String { "" }
        var intValue: Int? { nil }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { nil }
    }
}

/// Any optional decodes an empty response body as `nil`.
extension Optional: EmptyResponseDecodable {
    /// `nil`: an optional type reads an empty body as no value.
    public static var emptyResponseValue: Wrapped? { nil }
}
