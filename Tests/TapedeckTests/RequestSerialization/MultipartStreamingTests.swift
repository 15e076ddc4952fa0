import Foundation
import Tapedeck
import Testing
import TapedeckTestSupport
import TapedeckCore

@Suite struct MultipartStreamingTests {
    typealias Support = RequestSerializationTestSupport

    /// Writes `megabytes` MiB whose byte at offset `i` is `i % 251`, one MiB at a time.
    private func makePatternFile(at url: URL, megabytes: Int) throws {
        let mebibyte = 1 << 20
        let pattern = Data((0..<(mebibyte + 251)).map { UInt8($0 % 251) })
        #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        for index in 0..<megabytes {
            let shift = (index * mebibyte) % 251
            try handle.write(contentsOf: pattern[shift..<(shift + mebibyte)])
        }
    }

    @Test func largeFileStreamsInBoundedChunks() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let fileURL = directory.file("large.bin")
        let megabytes = 64
        try makePatternFile(at: fileURL, megabytes: megabytes)

        var form = MultipartFormData(boundary: "B")
        form.append("before", name: "a")
        try form.append(fileURL: fileURL, name: "file")
        let stream = form.makeBodyStream()
        let readSize = MultipartFormData.defaultChunkSize
        #expect(stream.length == form.contentLength)

        var total: Int64 = 0
        var count = 0
        var largest = 0
        var head = Data()
        var tail = Data()
        for try await chunk in stream.makeChunks() {
            total += Int64(chunk.count)
            count += 1
            largest = max(largest, chunk.count)
            if head.count < 512 { head.append(chunk.prefix(512 - head.count)) }
            tail = (tail + chunk).suffix(64)
        }
        #expect(largest <= readSize)
        #expect(total == form.contentLength)
        #expect(total > Int64(megabytes << 20))
        #expect(count >= (megabytes << 20) / readSize)
        let preamble =
            "--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nbefore\r\n--B\r\n"
            + "Content-Disposition: form-data; name=\"file\"; filename=\"large.bin\"\r\n"
            + "Content-Type: application/octet-stream\r\n\r\n"
        #expect(head.starts(with: Data(preamble.utf8)))
        #expect(head.dropFirst(preamble.utf8.count).prefix(3) == Data([0, 1, 2]))
        let lastFileByte = UInt8(((megabytes << 20) - 1) % 251)
        #expect(tail.suffix(10) == Data([lastFileByte]) + Data("\r\n--B--\r\n".utf8))
    }

    @Test func fileContentsAreStreamedExactly() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let fileURL = directory.file("random.dat")
        var generator = SplitMix64(seed: 42)
        let contents = Data((0..<300_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
        try contents.write(to: fileURL)

        var form = MultipartFormData(boundary: "B")
        try form.append(fileURL: fileURL, name: "f")
        let body = try await Support.bytes(of: .stream(form.makeBodyStream(chunkSize: 4096)))
        let preamble = Data(
            ("--B\r\nContent-Disposition: form-data; name=\"f\"; filename=\"random.dat\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\n").utf8)
        #expect(body == preamble + contents + Data("\r\n--B--\r\n".utf8))
    }

    @Test func throttledBodiesUsePacketSizedChunks() async throws {
        var form = MultipartFormData(boundary: "B")
        form.append(
            Data(repeating: 1, count: 10_000), name: "blob", fileName: "b", mimeType: "application/octet-stream")
        let reference = try await Support.bytes(of: .stream(form.makeBodyStream()))
        form.throttle(packetSize: 1500, delay: .zero)
        #expect(form.packetSize == 1500)
        let chunks = try await Support.chunks(of: form.makeBodyStream())
        #expect(chunks.allSatisfy { $0.count <= 1500 })
        #expect(chunks.reduce(into: Data()) { $0.append($1) } == reference)

        form.throttle(packetSize: 4096, delay: .milliseconds(1))
        #expect(form.packetDelay == .milliseconds(1))
        let delayed = try await Support.chunks(of: form.makeBodyStream())
        #expect(delayed.allSatisfy { $0.count <= 4096 })
        #expect(delayed.reduce(into: Data()) { $0.append($1) } == reference)
    }

    @Test func bodyStreamCanBeReadMoreThanOnce() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let fileURL = directory.file("note.txt")
        try Data("note".utf8).write(to: fileURL)
        var form = MultipartFormData(boundary: "B")
        try form.append(fileURL: fileURL, name: "f")
        form.append(
            Support.stream([Data("xy".utf8)], length: 2), length: 2, name: "s", fileName: "s", mimeType: "text/plain")
        let stream = form.makeBodyStream()
        let first = try await Support.bytes(of: .stream(stream))
        let second = try await Support.bytes(of: .stream(stream))
        #expect(first == second)
        #expect(Int64(first.count) == form.contentLength)
    }

    @Test func writeToFileMatchesTheStreamedBody() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = directory.file("part.json")
        try Data(#"{"a":1}"#.utf8).write(to: source)
        var form = MultipartFormData(boundary: "B")
        form.append("v", name: "k")
        try form.append(fileURL: source, name: "doc")
        form.append(
            Data(repeating: 3, count: 150_000), name: "bin", fileName: "bin", mimeType: "application/octet-stream")

        let target = directory.file("body.multipart")
        try Data("stale contents that must be replaced".utf8).write(to: target)
        try await form.writeToFile(target)
        let written = try Data(contentsOf: target)
        #expect(written == (try await Support.bytes(of: .stream(form.makeBodyStream()))))
        #expect(Int64(written.count) == form.contentLength)
    }

    @Test func failedWriteToFileLeavesNoPartialFile() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var form = MultipartFormData(boundary: "B")
        form.append(
            Support.stream([Data("short".utf8)], length: nil), length: 100, name: "s", fileName: "s",
            mimeType: "text/plain")
        let target = directory.file("body.multipart")
        let error = await Support.serializationError { try await form.writeToFile(target) }
        #expect(error.map { ($0 as NSError).code } == 4)
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }
}
