import Foundation

/// Validates a response and decodes its JSON body into a `Decodable` type with a `JSONDecoder`.
///
/// - Accepts `application/json`, `text/json` and `text/javascript` (and status 200–299) by default.
/// - An empty body (none, zero bytes, or a single space as Rails sends) gives `T.emptyResponseValue` when `T` is
///   ``EmptyResponseDecodable`` (``EmptyResponse``, or any `Optional`), and otherwise throws
///   ``ResponseSerializationError/emptyBody(expected:head:)`` (-1014) — a 204, a 205 or a reply to `HEAD` has
///   nothing to decode.
/// - A body the decoder rejects throws ``ResponseSerializationError/decodingFailed(_:head:data:underlying:)``
///   (-1016) with the `DecodingError` underneath.
///
/// ```swift
/// struct User: Decodable, Sendable { var id: Int; var name: String }
///
/// let decoder = JSONDecoder()
/// decoder.keyDecodingStrategy = .convertFromSnakeCase
/// let user = try DecodableResponseSerializer(User.self, decoder: decoder).serialize(head: head, data: body)
/// ```
public struct DecodableResponseSerializer<T: Decodable & Sendable>: ValidatingResponseSerializer {
    /// The status and content-type rules; default 2xx and ``JSONResponseSerializer/defaultContentTypes``.
    public var validation: ResponseValidation
    /// The decoder that reads the body.
    public var decoder: JSONDecoder

    /// Creates a serializer for `type`.
    public init(
        _ type: T.Type = T.self,
        decoder: JSONDecoder = JSONDecoder(),
        validation: ResponseValidation = ResponseValidation(
            acceptableContentTypes: JSONResponseSerializer.defaultContentTypes
        )
    ) {
        self.decoder = decoder
        self.validation = validation
    }

    /// Validates, then decodes the body as `T`.
    public func serialize(head: HTTPResponseHead?, data: Data?) throws -> T {
        try validation.validate(head: head, data: data)
        guard let data, !data.isEmpty, data != Self.singleSpace else {
            if let emptyType = T.self as? any EmptyResponseDecodable.Type,
                let empty = emptyType.emptyResponseValue as? T
            {
                return empty
            }
            throw ResponseSerializationError.emptyBody(expected: String(describing: T.self), head: head)
        }
        do {
            return try decoder.decode(T.self, from: data)
        } catch {
            throw ResponseSerializationError.decodingFailed(
                .decodable(typeName: String(describing: T.self)), head: head, data: data, underlying: error
            )
        }
    }

    private static var singleSpace: Data { Data(" ".utf8) }
}
