import Foundation

/// Writes request bodies to files chunk by chunk.
enum RequestBodyFileWriter {
    /// Creates or truncates `fileURL` and writes every chunk of `chunks` to it. On failure the partial file is
    /// removed.
    static func write<Chunks: AsyncSequence>(_ chunks: Chunks, to fileURL: URL) async throws
    where Chunks.Element == Data {
        guard FileManager.default.createFile(atPath: fileURL.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: fileURL.path])
        }
        let handle = try FileHandle(forWritingTo: fileURL)
        do {
            for try await chunk in chunks {
                try handle.write(contentsOf: chunk)
            }
            try handle.close()
        } catch {
            try? handle.close()
            try? FileManager.default.removeItem(at: fileURL)
            throw error
        }
    }

    /// Writes `body` to `fileURL`: data at once, a file or a stream chunk by chunk.
    static func write(_ body: HTTPRequestBody, to fileURL: URL) async throws {
        let segments: [MultipartSegment]
        switch body {
        case .none:
            segments = []
        case .data(let data):
            segments = [.bytes(data)]
        case .file(let source):
            guard let length = body.knownLength else {
                throw RequestSerializationError.fileNotReadable(fileURL: source, underlying: nil)
            }
            segments = [.file(source, length: length)]
        case .stream(let stream):
            try await write(stream.makeChunks(), to: fileURL)
            return
        }
        let chunks = MultipartBodyChunks(
            segments: segments, chunkSize: MultipartFormData.defaultChunkSize, delay: .zero)
        try await write(chunks, to: fileURL)
    }
}
