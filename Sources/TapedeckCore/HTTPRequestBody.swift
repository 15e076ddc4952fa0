import Foundation

/// The body a request sends.
///
/// ```swift
/// request.body = .data(Data("hello".utf8))
/// request.body = .file(URL(fileURLWithPath: "/tmp/upload.bin"))
/// request.body = .stream(HTTPBodyStream(length: nil) { chunksFromSomewhere() })
/// ```
public enum HTTPRequestBody: Sendable {
    /// No body.
    case none
    /// An in-memory body.
    case data(Data)
    /// The contents of a local file, streamed from disk as it is sent.
    case file(URL)
    /// An asynchronous stream of chunks, of known or unknown length.
    case stream(HTTPBodyStream)

    /// The body's length in bytes when it is known without reading it: `0` for `.none`, the data's count,
    /// the file's size, or the stream's declared length.
    public var knownLength: Int64? {
        switch self {
        case .none:
            return 0
        case .data(let data):
            return Int64(data.count)
        case .file(let url):
            let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
            return (attributes?[.size] as? NSNumber)?.int64Value
        case .stream(let stream):
            return stream.length
        }
    }

    /// Whether there is a body to send at all.
    public var isEmpty: Bool {
        if case .none = self { return true }
        return false
    }
}

/// A request body produced asynchronously, chunk by chunk.
///
/// The transport asks `makeChunks` for a fresh sequence each time it must send the body from the start
/// (normally once), and pulls chunks only as fast as the connection takes them.
///
/// ```swift
/// let body = HTTPBodyStream(length: 11) {
///     AsyncThrowingStream { continuation in
///         continuation.yield(Data("hello ".utf8))
///         continuation.yield(Data("world".utf8))
///         continuation.finish()
///     }
/// }
/// ```
public struct HTTPBodyStream: Sendable {
    /// The total length in bytes, or `nil` to send with chunked transfer encoding.
    public let length: Int64?
    private let factory: @Sendable () -> AsyncThrowingStream<Data, any Error>

    /// Creates a stream body from a factory of chunk sequences.
    public init<Chunks: AsyncSequence & Sendable>(
        length: Int64?,
        makeChunks: @escaping @Sendable () -> Chunks
    ) where Chunks.Element == Data {
        self.length = length
        self.factory = {
            let source = SerialIterator(makeChunks())
            // Pull-based: each chunk is read from the source only when the consumer asks for it, so a producer
            // faster than the network never piles chunks up in memory.
            return AsyncThrowingStream(unfolding: { try await source.next() })
        }
    }

    /// A fresh sequence of the body's chunks.
    public func makeChunks() -> AsyncThrowingStream<Data, any Error> { factory() }
}
