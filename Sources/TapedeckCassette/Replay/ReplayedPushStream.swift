import Foundation
import TapedeckCore

/// An MCP session's `GET` event stream replayed in process: the transfer's body chunks are what the replay pushes
/// to it (``SessionPushStreams``) until its session's `DELETE`, the cassette's `finish`, or the caller's cancellation.
final class ReplayedPushStream: PushStream {
    private let chunks: AsyncStream<Data>
    private let continuation: AsyncStream<Data>.Continuation

    init() {
        (chunks, continuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }

    func send(_ data: Data) { continuation.yield(data) }
    func end() { continuation.finish() }

    /// Plays the stream of `session` for `request`: the head, then each chunk pushed to it as it comes, until it ends.
    /// A cancelled caller gets `URLError.cancelled`, as from a live transfer.
    static func play(_ response: Interaction.Response, start: Data, session: String, streams: SessionPushStreams<ReplayedPushStream>,
                     request: HTTPRequest, emit: HTTPEventHandler?) async throws -> HTTPResponse {
        let stream = ReplayedPushStream()
        streams.open(session, stream: stream, start: start)
        defer { streams.forget(stream, of: session) }
        let head = response.head(answering: request)
        emit?(.responseHead(head))
        var received: Int64 = 0
        // A cancelled caller ends the wait for the next chunk (the iteration returns nil).
        for await chunk in stream.chunks {
            received += Int64(chunk.count)
            emit?(.bodyChunk(chunk))
            emit?(.downloadProgress(TransferProgress(completed: received, total: nil)))
        }
        if Task.isCancelled { throw URLError(.cancelled, userInfo: [NSURLErrorFailingURLErrorKey: request.url]) }
        return HTTPResponse(head: head, body: .streamed(byteCount: received))
    }
}
