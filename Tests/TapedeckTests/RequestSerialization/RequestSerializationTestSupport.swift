import Foundation
import Tapedeck

/// Helpers shared by the request-serialization tests.
enum RequestSerializationTestSupport {
    static let url = URL(string: "http://example.com")!

    /// A serializer with fixed languages and user agent, so header assertions do not depend on the machine.
    static func serializer() -> HTTPRequestSerializer {
        HTTPRequestSerializer(preferredLanguages: ["en"], userAgent: "Tests/1.0")
    }

    /// Every byte a request body sends.
    static func bytes(of body: HTTPRequestBody) async throws -> Data {
        switch body {
        case .none:
            return Data()
        case .data(let data):
            return data
        case .file(let url):
            return try Data(contentsOf: url)
        case .stream(let stream):
            return try await chunks(of: stream).reduce(into: Data()) { $0.append($1) }
        }
    }

    /// The chunks of a stream body, in order.
    static func chunks(of stream: HTTPBodyStream) async throws -> [Data] {
        var chunks: [Data] = []
        for try await chunk in stream.makeChunks() {
            chunks.append(chunk)
        }
        return chunks
    }

    /// The body as UTF-8 text.
    static func text(of body: HTTPRequestBody) async throws -> String {
        String(decoding: try await bytes(of: body), as: UTF8.self)
    }

    /// A stream body yielding `pieces` in order and declaring `length`.
    static func stream(_ pieces: [Data], length: Int64?) -> HTTPBodyStream {
        HTTPBodyStream(length: length) {
            AsyncThrowingStream<Data, any Error> { continuation in
                for piece in pieces { continuation.yield(piece) }
                continuation.finish()
            }
        }
    }

    /// The `RequestSerializationError` `body` throws, or `nil` when it throws something else or nothing.
    static func serializationError(_ body: () throws -> Void) -> RequestSerializationError? {
        do {
            try body()
            return nil
        } catch {
            return error as? RequestSerializationError
        }
    }

    /// The `RequestSerializationError` an asynchronous `body` throws, or `nil`.
    static func serializationError(_ body: () async throws -> Void) async -> RequestSerializationError? {
        do {
            try await body()
            return nil
        } catch {
            return error as? RequestSerializationError
        }
    }
}
