import Foundation

/// The encoded multipart body as an asynchronous sequence of chunks, produced on demand: each `next()` fills one
/// chunk of at most `chunkSize` bytes from the segments in order, reading files and streams only as far as that
/// chunk needs. Every iteration starts from the beginning, so the body can be sent more than once.
struct MultipartBodyChunks: AsyncSequence, Sendable {
    typealias Element = Data

    let segments: [MultipartSegment]
    let chunkSize: Int
    /// The pause before every chunk after the first (throttling); `.zero` for none.
    let delay: Duration

    func makeAsyncIterator() -> Iterator {
        Iterator(segments: segments, chunkSize: chunkSize, delay: delay)
    }

    struct Iterator: AsyncIteratorProtocol {
        private let segments: [MultipartSegment]
        private let chunkSize: Int
        private let delay: Duration
        private var nextSegment = 0
        private var reader: MultipartSegmentReader?
        private var producedChunk = false

        init(segments: [MultipartSegment], chunkSize: Int, delay: Duration) {
            self.segments = segments
            self.chunkSize = chunkSize
            self.delay = delay
        }

        mutating func next() async throws -> Data? {
            var chunk = Data()
            while chunk.count < chunkSize {
                if reader == nil {
                    guard nextSegment < segments.count else { break }
                    reader = try MultipartSegmentReader(segments[nextSegment])
                    nextSegment += 1
                }
                guard var current = reader else { break }
                reader = nil
                let finished = try await current.read(into: &chunk, upTo: chunkSize - chunk.count)
                if !finished { reader = current }
            }
            guard !chunk.isEmpty else { return nil }
            if producedChunk, delay > .zero {
                try await Task.sleep(for: delay)
            }
            producedChunk = true
            return chunk
        }
    }
}

/// Reads one segment incrementally.
enum MultipartSegmentReader {
    case bytes(Data, offset: Int)
    case file(FileState)
    case stream(StreamState)

    /// An open file part: `remaining` of its `declared` bytes are still to be read.
    struct FileState {
        let handle: FileHandle
        let url: URL
        var remaining: Int64
        let declared: Int64
    }

    /// A stream part: the latest chunk the stream produced and how much of it was passed on.
    struct StreamState {
        var iterator: AsyncThrowingStream<Data, any Error>.AsyncIterator
        var pending = Data()
        var offset = 0
        var produced: Int64 = 0
        let declared: Int64
    }

    /// Opens `segment`; a file is opened here, so a file that vanished since it was appended fails now.
    init(_ segment: MultipartSegment) throws {
        switch segment {
        case .bytes(let data):
            self = .bytes(data, offset: 0)
        case .file(let url, let length):
            do {
                let handle = try FileHandle(forReadingFrom: url)
                self = .file(FileState(handle: handle, url: url, remaining: length, declared: length))
            } catch {
                throw RequestSerializationError.fileNotReadable(fileURL: url, underlying: error)
            }
        case .stream(let stream, let length):
            self = .stream(StreamState(iterator: stream.makeChunks().makeAsyncIterator(), declared: length))
        }
    }

    /// Appends at most `limit` bytes of the segment to `chunk`. Returns `true` once the segment is exhausted.
    mutating func read(into chunk: inout Data, upTo limit: Int) async throws -> Bool {
        switch self {
        case .bytes(let data, let offset):
            let count = min(limit, data.count - offset)
            let start = data.startIndex + offset
            chunk.append(data[start..<(start + count)])
            self = .bytes(data, offset: offset + count)
            return offset + count == data.count
        case .file(var state):
            let finished = try state.read(into: &chunk, upTo: limit)
            self = .file(state)
            return finished
        case .stream(var state):
            let finished = try await state.read(into: &chunk, upTo: limit)
            self = .stream(state)
            return finished
        }
    }
}

extension MultipartSegmentReader.FileState {
    /// Reads at most `limit` bytes; once `declared` bytes are read, checks that the file has no more and closes it.
    mutating func read(into chunk: inout Data, upTo limit: Int) throws -> Bool {
        if remaining > 0 {
            let data: Data
            do {
                data = try handle.read(upToCount: Int(min(Int64(limit), remaining))) ?? Data()
            } catch {
                try? handle.close()
                throw RequestSerializationError.fileNotReadable(fileURL: url, underlying: error)
            }
            guard !data.isEmpty else {
                try? handle.close()
                throw RequestSerializationError.bodyPartLengthMismatch(
                    declared: declared, produced: declared - remaining)
            }
            if chunk.isEmpty { chunk = data } else { chunk.append(data) }
            remaining -= Int64(data.count)
            if remaining > 0 { return false }
        }
        let extra = (try? handle.read(upToCount: 1)) ?? nil
        try? handle.close()
        if let extra, !extra.isEmpty {
            throw RequestSerializationError.bodyPartLengthMismatch(declared: declared, produced: declared + 1)
        }
        return true
    }
}

extension MultipartSegmentReader.StreamState {
    /// Passes on at most `limit` bytes of the pending chunk, or pulls the next chunk; checks the total against
    /// `declared`.
    mutating func read(into chunk: inout Data, upTo limit: Int) async throws -> Bool {
        if offset < pending.count {
            let count = min(limit, pending.count - offset)
            let start = pending.startIndex + offset
            chunk.append(pending[start..<(start + count)])
            offset += count
            return false
        }
        guard let next = try await iterator.next() else {
            guard produced == declared else {
                throw RequestSerializationError.bodyPartLengthMismatch(declared: declared, produced: produced)
            }
            return true
        }
        produced += Int64(next.count)
        guard produced <= declared else {
            throw RequestSerializationError.bodyPartLengthMismatch(declared: declared, produced: produced)
        }
        pending = next
        offset = 0
        return false
    }
}
