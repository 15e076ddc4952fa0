import Foundation
import TapedeckCore

extension StubResponse {
    /// The answer to `request` for a generated body of `totalLength` bytes, honouring a single `Range` header as
    /// servers do: `206 Partial Content` with `Content-Range` for `bytes=N-`, `bytes=N-M` or `bytes=-N`, `416` for a
    /// range past the end, and the whole body (`200`, with `Accept-Ranges: bytes`) otherwise.
    ///
    /// ```swift
    /// server.route(.get, "/file") { .generatedHonoringRange(of: $0, totalLength: 100 << 20) }
    /// ```
    /// With `pace`, the body is dribbled in chunks of `chunkSize` bytes every `interval`, so a client can be
    /// interrupted part way.
    public static func generatedHonoringRange(
        of request: RecordedRequest, totalLength: Int64, pace: (chunkSize: Int, interval: Duration)? = nil
    ) -> StubResponse {
        func body(offset: Int64, length: Int64) -> StubBody {
            guard let pace else { return offset == 0 ? .generated(length: length) : .generatedRange(offset: offset, length: length) }
            return .chunked(ChunkedBody(generatedLength: length, offset: offset, chunkSize: pace.chunkSize, interval: pace.interval))
        }
        var headers: HTTPHeaders = ["Content-Type": "application/octet-stream", "Accept-Ranges": "bytes", "ETag": "\"generated-\(totalLength)\""]
        guard let header = request.headers["Range"], let range = ByteRange(header: header, totalLength: totalLength) else {
            return StubResponse(headers: headers, body: body(offset: 0, length: totalLength))
        }
        guard range.first < totalLength, range.first <= range.last else {
            headers["Content-Range"] = "bytes */\(totalLength)"
            return StubResponse(status: 416, headers: headers)
        }
        headers["Content-Range"] = "bytes \(range.first)-\(range.last)/\(totalLength)"
        return StubResponse(status: 206, headers: headers,
                            body: body(offset: range.first, length: range.last - range.first + 1))
    }
}

/// One byte range from a `Range: bytes=…` header. Pure logic.
struct ByteRange: Equatable {
    let first: Int64
    let last: Int64

    /// Parses `bytes=N-`, `bytes=N-M` or `bytes=-N` against a body of `totalLength`; `nil` when the header is not a
    /// single byte range (the server then answers with the whole body, as RFC 9110 allows).
    init?(header: String, totalLength: Int64) {
        let value = header.trimmingCharacters(in: .whitespaces)
        guard value.lowercased().hasPrefix("bytes="), !value.contains(",") else { return nil }
        let spec = value.dropFirst("bytes=".count)
        let bounds = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard bounds.count == 2 else { return nil }
        let start = bounds[0].trimmingCharacters(in: .whitespaces)
        let end = bounds[1].trimmingCharacters(in: .whitespaces)
        if start.isEmpty {
            guard let suffix = Int64(end), suffix > 0 else { return nil }
            first = max(0, totalLength - suffix)
            last = totalLength - 1
        } else {
            guard let from = Int64(start), from >= 0 else { return nil }
            first = from
            if end.isEmpty {
                last = totalLength - 1
            } else {
                guard let to = Int64(end), to >= from else { return nil }
                last = min(to, totalLength - 1)
            }
        }
    }
}
