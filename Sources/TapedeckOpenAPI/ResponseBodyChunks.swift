import OpenAPIRuntime

/// A response body's chunks as the transfer delivers them, for `HTTPBody`.
///
/// A reader whose task is cancelled gets `CancellationError` instead of a quiet early end, so a cut-short body is
/// never taken for a whole one; the transfer is cancelled with it. Dropping the sequence unread cancels the transfer
/// too.
struct ResponseBodyChunks: AsyncSequence, Sendable {
    typealias Element = HTTPBody.ByteChunk

    private let chunks: AsyncThrowingStream<HTTPBody.ByteChunk, any Error>

    init(_ chunks: AsyncThrowingStream<HTTPBody.ByteChunk, any Error>) {
        self.chunks = chunks
    }

    func makeAsyncIterator() -> Iterator {
        Iterator(base: chunks.makeAsyncIterator())
    }

    struct Iterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<HTTPBody.ByteChunk, any Error>.AsyncIterator

        mutating func next() async throws -> HTTPBody.ByteChunk? {
            guard let chunk = try await base.next() else {
                try Task.checkCancellation()
                return nil
            }
            return chunk
        }
    }
}
