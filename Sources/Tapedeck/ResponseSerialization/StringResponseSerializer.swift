import Foundation

/// Validates a response and decodes its body as text in the character set its `Content-Type` names.
///
/// - The encoding is ``encoding`` when set; otherwise the `charset` of `Content-Type` (UTF-8, US-ASCII,
///   ISO-8859-1/-2, UTF-16 with or without LE/BE, UTF-32, windows-125x, macintosh); otherwise, or for a charset
///   not in that list, ``defaultEncoding`` (UTF-8).
/// - Accepts status 200–299 and any content type by default.
/// - An empty body gives `""`.
/// - Bytes that are not valid in the encoding throw
///   ``ResponseSerializationError/decodingFailed(_:head:data:underlying:)`` (-1016) with a `CocoaError`
///   (`.fileReadInapplicableStringEncoding`) underneath.
///
/// ```swift
/// let text = try StringResponseSerializer().serialize(head: head, data: body)
/// ```
public struct StringResponseSerializer: ValidatingResponseSerializer {
    /// The status and content-type rules; default 2xx, any content type.
    public var validation: ResponseValidation
    /// An encoding that overrides the response's charset; `nil` (the default) reads it from `Content-Type`.
    public var encoding: String.Encoding?
    /// The encoding used when the response names no charset, or one this serializer does not know. Default UTF-8.
    public var defaultEncoding: String.Encoding

    /// Creates a serializer.
    public init(
        encoding: String.Encoding? = nil,
        defaultEncoding: String.Encoding = .utf8,
        validation: ResponseValidation = ResponseValidation()
    ) {
        self.encoding = encoding
        self.defaultEncoding = defaultEncoding
        self.validation = validation
    }

    /// The encoding this serializer decodes `head`'s body with.
    public func encoding(for head: HTTPResponseHead?) -> String.Encoding {
        if let encoding { return encoding }
        guard let head, let charset = ResponseCharset.name(in: head) else { return defaultEncoding }
        return ResponseCharset.encoding(named: charset) ?? defaultEncoding
    }

    /// Validates, then decodes the body; `""` for an empty body.
    public func serialize(head: HTTPResponseHead?, data: Data?) throws -> String {
        try validation.validate(head: head, data: data)
        guard let data, !data.isEmpty else { return "" }
        let encoding = encoding(for: head)
        guard let string = String(data: data, encoding: encoding) else {
            let underlying = CocoaError(.fileReadInapplicableStringEncoding, userInfo: [
                NSStringEncodingErrorKey: encoding.rawValue,
                NSDebugDescriptionErrorKey: "The body is not valid \(ResponseCharset.name(of: encoding))",
            ])
            throw ResponseSerializationError.decodingFailed(
                .string(encoding), head: head, data: data, underlying: underlying
            )
        }
        return string
    }
}
