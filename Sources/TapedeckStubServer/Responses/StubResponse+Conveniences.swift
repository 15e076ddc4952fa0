import Foundation
import TapedeckCore

extension StubResponse {
    /// An `application/json` response from a JSON value.
    ///
    /// ```swift
    /// server.route(.get, "/me", response: .json(["name": "Ada", "admin": false]))
    /// ```
    public static func json(_ value: JSONValue, status: Int = 200) -> StubResponse {
        .json(value.encoded, status: status)
    }

    /// An `application/json` response from any `Encodable` value; a value that cannot be encoded gives a `500`
    /// whose body says why.
    public static func json<Value: Encodable>(encoding value: Value, status: Int = 200) -> StubResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            return .json(try encoder.encode(value), status: status)
        } catch {
            return .text("StubResponse.json(encoding:) cannot encode \(Value.self): \(error)\n", status: 500)
        }
    }

    /// A response whose body is a file's contents, with `Content-Type` when given.
    public static func file(_ url: URL, contentType: String? = nil, status: Int = 200) -> StubResponse {
        StubResponse(status: status, headers: contentType.map { ["Content-Type": $0] } ?? [:], body: .file(url))
    }

    /// This response with its in-memory body sent in chunks of `bytesPerChunk` bytes, `interval` apart, with
    /// chunked transfer encoding. Other bodies are returned unchanged.
    ///
    /// ```swift
    /// server.route(.get, "/slow", response: .text(String(repeating: "x", count: 100)).dribbled(bytesPerChunk: 10, interval: .milliseconds(20)))
    /// ```
    public func dribbled(bytesPerChunk: Int, interval: Duration) -> StubResponse {
        var copy = self
        switch body {
        case .data(let data): copy.body = .chunked(ChunkedBody(data: data, chunkSize: bytesPerChunk, interval: interval))
        case .empty: copy.body = .chunked(ChunkedBody(data: Data(), chunkSize: bytesPerChunk, interval: interval))
        case .generated(let length):
            copy.body = .chunked(ChunkedBody(generatedLength: length, chunkSize: bytesPerChunk, interval: interval))
        default: break
        }
        return copy
    }

    /// This response after `delay`.
    public func delayed(by delay: Duration) -> StubResponse {
        var copy = self
        copy.delay = delay
        return copy
    }
}
