import Foundation

/// Validates a response and parses its body as a property list (XML or binary) into a ``PropertyListValue``:
/// AFNetworking's `AFPropertyListResponseSerializer`.
///
/// - Accepts `application/x-plist` (and status 200–299) by default.
/// - An empty body (e.g. a 204) gives `nil` without an error.
/// - A body that is not a property list throws
///   ``ResponseSerializationError/decodingFailed(_:head:data:underlying:)`` (-1016) with
///   `PropertyListSerialization`'s error underneath.
///
/// ```swift
/// let plist = try PropertyListResponseSerializer().serialize(head: head, data: body)
/// plist?["foo"]?.stringValue
/// ```
public struct PropertyListResponseSerializer: ValidatingResponseSerializer {
    /// The MIME types accepted by default: `application/x-plist`.
    public static let defaultContentTypes: Set<String> = ["application/x-plist"]

    /// The status and content-type rules; default 2xx and ``defaultContentTypes``.
    public var validation: ResponseValidation

    /// Creates a serializer.
    public init(
        validation: ResponseValidation = ResponseValidation(
            acceptableContentTypes: PropertyListResponseSerializer.defaultContentTypes
        )
    ) {
        self.validation = validation
    }

    /// Validates, then parses the body; `nil` for an empty body.
    public func serialize(head: HTTPResponseHead?, data: Data?) throws -> PropertyListValue? {
        try validation.validate(head: head, data: data)
        guard let data, !data.isEmpty else { return nil }
        do {
            let object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
            guard let value = PropertyListValue(foundationObject: object) else {
                throw CocoaError(.propertyListReadCorrupt, userInfo: [
                    NSDebugDescriptionErrorKey: "The property list holds a value of type \(type(of: object))",
                ])
            }
            return value
        } catch {
            throw ResponseSerializationError.decodingFailed(.propertyList, head: head, data: data, underlying: error)
        }
    }
}
