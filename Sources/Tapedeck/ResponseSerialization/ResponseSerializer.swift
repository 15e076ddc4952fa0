import Foundation

/// Turns a response into a value: AFNetworking's `AFURLResponseSerialization`
/// (`responseObjectForResponse:data:error:`), generic over a `Sendable` output.
///
/// A serializer validates the response first (see ``ResponseValidation``) and then decodes the body. It throws
/// ``ResponseSerializationError`` for a rejected response; values are plain structs, so a configured serializer can
/// be shared across tasks.
///
/// ```swift
/// let serializer = JSONResponseSerializer()
/// let json = try serializer.serialize(head: response.head, data: response.data)  // JSONValue?
///
/// let any: any ResponseSerializer = serializer
/// let value = try any.serialize(head: response.head, data: response.data)       // any Sendable
/// ```
public protocol ResponseSerializer<Output>: Sendable {
    /// What a successful serialization produces.
    associatedtype Output: Sendable

    /// Validates the response and decodes its body.
    ///
    /// - Parameters:
    ///   - head: the response's status line and headers, or `nil` when there was no response (e.g. the transport
    ///     failed); validation passes without one, as AFNetworking's does.
    ///   - data: the body, or `nil` when there was none.
    func serialize(head: HTTPResponseHead?, data: Data?) throws -> Output
}

extension ResponseSerializer {
    /// Serializes a complete response (its in-memory body; `nil` when the body went to a file or a stream).
    ///
    /// ```swift
    /// let value = try JSONResponseSerializer().serialize(response)
    /// ```
    public func serialize(_ response: HTTPResponse) throws -> Output {
        try serialize(head: response.head, data: response.data)
    }
}

/// A response serializer whose acceptance rules are a ``ResponseValidation``; gives it AFNetworking's
/// `acceptableStatusCodes` and `acceptableContentTypes` properties.
///
/// ```swift
/// var serializer = JSONResponseSerializer()
/// serializer.acceptableContentTypes?.insert("text/plain")
/// ```
public protocol ValidatingResponseSerializer<Output>: ResponseSerializer {
    /// The status and content-type rules checked before decoding.
    var validation: ResponseValidation { get set }
}

extension ValidatingResponseSerializer {
    /// Status codes that pass validation; `nil` accepts every status.
    public var acceptableStatusCodes: Set<Int>? {
        get { validation.acceptableStatusCodes }
        set { validation.acceptableStatusCodes = newValue }
    }

    /// MIME types that pass validation; `nil` accepts any.
    public var acceptableContentTypes: Set<String>? {
        get { validation.acceptableContentTypes }
        set { validation.acceptableContentTypes = newValue }
    }

    /// Runs ``validation`` on a response (AFNetworking's `validateResponse:data:error:`).
    public func validate(head: HTTPResponseHead?, data: Data?) throws(ResponseSerializationError) {
        try validation.validate(head: head, data: data)
    }
}
