import Foundation

extension RequestSerializer {
    /// A `multipart/form-data` request (AFNetworking's
    /// `multipartFormRequestWithMethod:URLString:parameters:constructingBodyWithBlock:error:`).
    ///
    /// The request is built with ``request(method:url:parameters:)`` without parameters; then the form gets one
    /// field per flattened parameter (``QueryStringEncoding/pairs(from:)``, unescaped; `null` as an empty value),
    /// then whatever `constructingBody` appends. When the form has parts, the request gets
    /// `Content-Type: multipart/form-data; boundary=…`, an exact `Content-Length` and the form as a lazily
    /// encoded stream body; an empty form leaves the request as built.
    ///
    /// ```swift
    /// let request = try HTTPRequestSerializer().multipartRequest(
    ///     method: .post, url: URL(string: "http://127.0.0.1:8080/post")!, parameters: ["album": "holiday"]
    /// ) { form in
    ///     try form.append(fileURL: URL(fileURLWithPath: "/tmp/photo.jpg"), name: "photo")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - method: the request method; `GET` and `HEAD` cannot carry a form.
    ///   - url: the request URL.
    ///   - parameters: fields added before the parts, flattened as a query string would be; `nil` for none.
    ///   - boundary: the form's boundary, or `nil` for a random one (``MultipartFormData/randomBoundary()``).
    ///   - constructingBody: appends parts; what it throws is rethrown.
    /// - Throws: ``RequestSerializationError/multipartNotAllowed(method:url:)`` for `GET` and `HEAD`, what
    ///   building the request throws, and what `constructingBody` throws.
    public func multipartRequest(
        method: HTTPMethod,
        url: URL,
        parameters: JSONValue?,
        boundary: String? = nil,
        constructingBody: (inout MultipartFormData) throws -> Void = { _ in }
    ) throws -> HTTPRequest {
        let token = method.rawValue.uppercased()
        guard token != HTTPMethod.get.rawValue, token != HTTPMethod.head.rawValue else {
            throw RequestSerializationError.multipartNotAllowed(method: method, url: url)
        }
        var request = try self.request(method: method, url: url, parameters: nil)
        var form = boundary.map { MultipartFormData(boundary: $0) } ?? MultipartFormData()
        if let parameters {
            for pair in QueryStringEncoding.pairs(from: parameters) {
                form.append(Data((pair.value ?? "").utf8), name: pair.key)
            }
        }
        try constructingBody(&form)
        guard !form.isEmpty else { return request }
        request.headers["Content-Type"] = form.contentType
        request.headers["Content-Length"] = String(form.contentLength)
        request.body = .stream(form.makeBodyStream())
        return request
    }

    /// Writes `request`'s body to `fileURL` chunk by chunk and returns the request with that file as its body
    /// (AFNetworking's `requestWithMultipartFormRequest:writingStreamContentsToFile:completionHandler:`), e.g. to
    /// upload a multipart form from a file. Headers, `Content-Length` included, are kept.
    ///
    /// ```swift
    /// let staged = try await serializer.request(multipart, writingBodyToFile: URL(fileURLWithPath: "/tmp/form.bin"))
    /// // staged.body == .file(/tmp/form.bin)
    /// ```
    ///
    /// - Throws: what reading the body or writing the file throws; a partial file is removed.
    public func request(_ request: HTTPRequest, writingBodyToFile fileURL: URL) async throws -> HTTPRequest {
        try await RequestBodyFileWriter.write(request.body, to: fileURL)
        var result = request
        result.body = .file(fileURL)
        return result
    }
}
