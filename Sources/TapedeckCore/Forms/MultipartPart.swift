import Foundation

/// One part of a multipart body, as ``MultipartParser`` reads it.
///
/// ```swift
/// let parts = try MultipartParser.parts(of: body, contentType: "multipart/form-data; boundary=XyZ")
/// parts.first { $0.name == "avatar" }?.fileName  // "me.png"
/// ```
public struct MultipartPart: Sendable, Hashable {
    /// The part's headers, in order.
    public var headers: HTTPHeaders
    /// The `name` parameter of its `Content-Disposition`.
    public var name: String?
    /// The `filename` parameter of its `Content-Disposition`, for file parts.
    public var fileName: String?
    /// Its `Content-Type`, as written, when given.
    public var contentType: String?
    /// Its bytes.
    public var body: Data

    /// Creates a part; `name`, `fileName` and `contentType` are read from `headers`.
    public init(headers: HTTPHeaders, body: Data) {
        let disposition = headers["Content-Disposition"].map { HTTPFieldSyntax.parameters(of: $0) } ?? [:]
        self.headers = headers
        self.name = disposition["name"]
        self.fileName = disposition["filename"]
        self.contentType = headers["Content-Type"]
        self.body = body
    }
}
