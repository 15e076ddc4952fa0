import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing
import TapedeckCore
import TapedeckTestSupport

/// An upload body of `count` chunks of `size` bytes that makes each chunk only when it is asked for, and counts them.
struct IncrementalUpload: Sendable {
    let count: Int
    let size: Int
    let produced = Locked(0)

    /// The body as OpenAPI's `HTTPBody`, of unknown length so it goes out with chunked transfer encoding.
    func body(length: HTTPBody.Length = .unknown) -> HTTPBody {
        let (count, size) = (self.count, self.size)
        let produced = self.produced
        let chunks = AsyncStream<HTTPBody.ByteChunk>(unfolding: {
            let index = produced.withLock { produced -> Int in
                produced += 1
                return produced
            }
            guard index <= count else { return nil }
            return IncrementalUpload.chunk(index, size: size)
        })
        return HTTPBody(chunks, length: length, iterationBehavior: .single)
    }

    /// Chunk `index` (from 1): `size` copies of one letter, so the whole body is text an echo returns as it is.
    static func chunk(_ index: Int, size: Int) -> HTTPBody.ByteChunk {
        HTTPBody.ByteChunk(repeating: UInt8(ascii: "a") + UInt8(index % 26), count: size)
    }

    /// Every byte of the body, to compare with what arrived.
    var expectedBytes: Data {
        var data = Data(capacity: count * size)
        for index in 1...count { data.append(contentsOf: Self.chunk(index, size: size)) }
        return data
    }

    /// Chunks made so far (one more than the count once the end was asked for).
    var producedCount: Int { produced.value }
}

/// A transport that pulls a stream request body chunk by chunk, noting after each chunk how many the body had made by
/// then, and answers `200` with the byte count.
struct PullingTransport: HTTPTransport {
    let upload: IncrementalUpload
    let producedWhenReceived = Locked<[Int]>([])

    func send(_ request: TapedeckCore.HTTPRequest, onEvent: HTTPEventHandler?) async throws -> TapedeckCore.HTTPResponse {
        guard case .stream(let stream) = request.body else { throw URLError(.badURL) }
        var total = 0
        for try await chunk in stream.makeChunks() {
            total += chunk.count
            let produced = upload.producedCount
            producedWhenReceived.withLock { $0.append(produced) }
        }
        let body = Data(String(total).utf8)
        let head = HTTPResponseHead(statusCode: 200, headers: ["Content-Length": "\(body.count)"], url: request.url)
        onEvent?(.responseHead(head))
        onEvent?(.bodyChunk(body))
        return TapedeckCore.HTTPResponse(head: head, body: .streamed(byteCount: Int64(body.count)))
    }
}

/// A transport that answers every request with `response`, its body in memory and no events, as a transport that
/// ignores ``ResponseBodyDestination/stream`` would; or throws `error`.
struct FixedTransport: HTTPTransport {
    var response: Result<(HTTPResponseHead, Data), URLError>

    func send(_ request: TapedeckCore.HTTPRequest, onEvent: HTTPEventHandler?) async throws -> TapedeckCore.HTTPResponse {
        let (head, body) = try response.get()
        return TapedeckCore.HTTPResponse(head: head, body: .data(body))
    }
}

/// The `URLError` a generated client's call threw inside the runtime's `ClientError`, or `nil` if it returned or threw
/// something else.
func underlyingURLError(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Void) async -> URLError? {
    do {
        try await body()
        return nil
    } catch let error as ClientError {
        return error.underlyingError as? URLError
    } catch {
        return nil
    }
}
