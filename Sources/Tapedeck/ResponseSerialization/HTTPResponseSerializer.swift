import Foundation

/// Validates a response and returns its body unchanged: AFNetworking's `AFHTTPResponseSerializer`.
///
/// Accepts status 200–299 and any content type by default.
///
/// ```swift
/// var serializer = HTTPResponseSerializer()
/// serializer.acceptableContentTypes = ["image/png"]
/// let bytes = try serializer.serialize(head: head, data: body)  // Data?
/// ```
public struct HTTPResponseSerializer: ValidatingResponseSerializer {
    /// The status and content-type rules; default 2xx, any content type.
    public var validation: ResponseValidation

    /// Creates a serializer.
    public init(validation: ResponseValidation = ResponseValidation()) {
        self.validation = validation
    }

    /// Validates, then returns `data` as it is.
    public func serialize(head: HTTPResponseHead?, data: Data?) throws -> Data? {
        try validation.validate(head: head, data: data)
        return data
    }
}
