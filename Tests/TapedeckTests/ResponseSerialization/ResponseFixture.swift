import Foundation
import Tapedeck

/// Builds response heads and bodies for the response-serialization suites; no I/O.
enum ResponseFixture {
    static let url = URL(string: "http://127.0.0.1:8080/resource")!

    /// A head for `url` with `statusCode` and, when given, a `Content-Type`.
    static func head(_ statusCode: Int = 200, _ contentType: String? = nil) -> HTTPResponseHead {
        var headers: HTTPHeaders = [:]
        if let contentType { headers["Content-Type"] = contentType }
        return HTTPResponseHead(statusCode: statusCode, headers: headers, url: url)
    }

    static func utf8(_ text: String) -> Data { Data(text.utf8) }

    /// The error `body` throws, as a `ResponseSerializationError`; `nil` when it throws nothing or something else.
    static func serializationError<T>(_ body: () throws -> T) -> ResponseSerializationError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error as? ResponseSerializationError
        }
    }
}
