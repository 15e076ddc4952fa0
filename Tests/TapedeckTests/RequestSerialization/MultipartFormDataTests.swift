import Foundation
import Tapedeck
import Testing
import TapedeckTestSupport

@Suite struct MultipartFormDataTests {
    typealias Support = RequestSerializationTestSupport
    static let boundary = "Boundary+0123456789ABCDEF"

    private func encoded(
        _ form: MultipartFormData, chunkSize: Int = MultipartFormData.defaultChunkSize
    ) async throws -> Data {
        try await Support.bytes(of: .stream(form.makeBodyStream(chunkSize: chunkSize)))
    }

    @Test func encodesExactlyAFNetworkingsWireFormat() async throws {
        var form = MultipartFormData(boundary: Self.boundary)
        form.append("value", name: "field")
        form.append(Data("hello".utf8), name: "file", fileName: "a.txt", mimeType: "text/plain")
        let expected =
            "--Boundary+0123456789ABCDEF\r\n"
            + "Content-Disposition: form-data; name=\"field\"\r\n"
            + "\r\n"
            + "value"
            + "\r\n--Boundary+0123456789ABCDEF\r\n"
            + "Content-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\n"
            + "Content-Type: text/plain\r\n"
            + "\r\n"
            + "hello"
            + "\r\n--Boundary+0123456789ABCDEF--\r\n"
        let body = try await encoded(form)
        #expect(String(decoding: body, as: UTF8.self) == expected)
        #expect(form.contentLength == Int64(expected.utf8.count))
        #expect(form.contentType == "multipart/form-data; boundary=Boundary+0123456789ABCDEF")
    }

    @Test func sameBytesWhateverTheChunkSize() async throws {
        var form = MultipartFormData(boundary: Self.boundary)
        form.append("one", name: "a")
        form.append(Data(repeating: 7, count: 1000), name: "b", fileName: "b.bin", mimeType: "application/octet-stream")
        form.append(headers: ["Content-Disposition": "form-data; name=\"c\"", "X-Extra": "1"], body: Data("three".utf8))
        let reference = try await encoded(form)
        #expect(Int64(reference.count) == form.contentLength)
        for chunkSize in [1, 7, 64, 999, 4096] {
            let chunks = try await Support.chunks(of: form.makeBodyStream(chunkSize: chunkSize))
            #expect(chunks.allSatisfy { $0.count <= chunkSize && !$0.isEmpty })
            #expect(chunks.reduce(into: Data()) { $0.append($1) } == reference)
        }
    }

    @Test func explicitHeadersAreWrittenInOrder() async throws {
        var form = MultipartFormData(boundary: "B")
        form.append(
            headers: ["Content-Disposition": "form-data; name=\"x\"", "Content-Type": "text/csv"],
            body: Data("1,2".utf8))
        let body = String(decoding: try await encoded(form), as: UTF8.self)
        let expected = "--B\r\nContent-Disposition: form-data; name=\"x\"\r\nContent-Type: text/csv\r\n\r\n"
        #expect(body == expected + "1,2\r\n--B--\r\n")
    }

    @Test func emptyFormHasNoBytes() async throws {
        let form = MultipartFormData(boundary: "B")
        #expect(form.isEmpty)
        #expect(form.contentLength == 0)
        #expect(try await encoded(form).isEmpty)
    }

    @Test func randomBoundaryHasAFNetworkingsShape() {
        let boundary = MultipartFormData.randomBoundary()
        #expect(boundary.hasPrefix("Boundary+"))
        let digits = boundary.dropFirst("Boundary+".count)
        #expect(digits.count == 16)
        #expect(digits.allSatisfy { "0123456789ABCDEF".contains($0) })
        #expect(MultipartFormData().boundary.hasPrefix("Boundary+"))
    }

    @Test func filePartTakesNameAndMIMETypeFromTheURL() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let fileURL = directory.file("photo.PNG")
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: fileURL)

        var form = MultipartFormData(boundary: "B")
        try form.append(fileURL: fileURL, name: "image")
        let body = try await encoded(form)
        var expected = Data(
            ("--B\r\nContent-Disposition: form-data; name=\"image\"; filename=\"photo.PNG\"\r\n"
                + "Content-Type: image/png\r\n\r\n").utf8)
        expected.append(contentsOf: [0x89, 0x50, 0x4E, 0x47])
        expected.append(Data("\r\n--B--\r\n".utf8))
        #expect(body == expected)
        #expect(form.contentLength == Int64(expected.count))
    }

    @Test func filePartWithExplicitNameAndType() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let fileURL = directory.file("data")
        try Data("abc".utf8).write(to: fileURL)

        var form = MultipartFormData(boundary: "B")
        try form.append(fileURL: fileURL, name: "f", fileName: "renamed.txt", mimeType: "text/plain")
        let body = String(decoding: try await encoded(form), as: UTF8.self)
        #expect(body.contains("name=\"f\"; filename=\"renamed.txt\"\r\nContent-Type: text/plain\r\n\r\nabc\r\n"))
    }

    @Test(arguments: [
        ("png", "image/png"), ("jpg", "image/jpeg"), ("JPEG", "image/jpeg"), ("gif", "image/gif"),
        ("txt", "text/plain"), ("html", "text/html"), ("json", "application/json"), ("pdf", "application/pdf"),
        ("zip", "application/zip"), ("mp4", "video/mp4"), ("cer", "application/x-x509-ca-cert"),
        ("unknown", "application/octet-stream"), ("", "application/octet-stream"),
    ])
    func mimeTypesComeFromTheExtension(pathExtension: String, mimeType: String) {
        #expect(MultipartFormData.mimeType(forPathExtension: pathExtension) == mimeType)
    }

    @Test func unreadableFilesAreRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let candidates = [
            directory.file("missing.txt"),
            directory.url,
            URL(string: "http://example.com/remote.txt")!,
        ]
        for candidate in candidates {
            var form = MultipartFormData(boundary: "B")
            let error = Support.serializationError { try form.append(fileURL: candidate, name: "f") }
            guard case .fileNotReadable(let fileURL, _) = error else {
                Issue.record("expected fileNotReadable for \(candidate), got \(String(describing: error))")
                continue
            }
            #expect(fileURL == candidate)
            #expect((error! as NSError).code == NSURLErrorBadURL)
            #expect(form.isEmpty)
        }
    }

    @Test func streamPartForwardsTheStream() async throws {
        let pieces = [Data("abc".utf8), Data(), Data("defgh".utf8), Data("ij".utf8)]
        var form = MultipartFormData(boundary: "B")
        form.append(
            Support.stream(pieces, length: nil), length: 10, name: "s", fileName: "s.bin",
            mimeType: "application/octet-stream")
        let expected =
            "--B\r\nContent-Disposition: form-data; name=\"s\"; filename=\"s.bin\"\r\n"
            + "Content-Type: application/octet-stream\r\n\r\nabcdefghij\r\n--B--\r\n"
        for chunkSize in [2, 4, 1024] {
            #expect(String(decoding: try await encoded(form, chunkSize: chunkSize), as: UTF8.self) == expected)
        }
        #expect(form.contentLength == Int64(expected.utf8.count))
    }

    @Test(arguments: [Int64(9), 11])
    func streamPartOfTheWrongLengthFails(declared: Int64) async {
        var form = MultipartFormData(boundary: "B")
        form.append(
            Support.stream([Data("0123456789".utf8)], length: nil), length: declared, name: "s", fileName: "s",
            mimeType: "text/plain")
        let error = await Support.serializationError { _ = try await encoded(form) }
        guard case .bodyPartLengthMismatch(let reportedDeclared, _) = error else {
            Issue.record("expected bodyPartLengthMismatch, got \(String(describing: error))")
            return
        }
        #expect(reportedDeclared == declared)
    }

    @Test func fileThatChangedSizeFails() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let fileURL = directory.file("grows.txt")
        try Data("1234".utf8).write(to: fileURL)
        var form = MultipartFormData(boundary: "B")
        try form.append(fileURL: fileURL, name: "f")

        try Data("12345678".utf8).write(to: fileURL)
        let grew = await Support.serializationError { _ = try await encoded(form) }
        #expect(grew.map { ($0 as NSError).code } == 4)

        try Data("12".utf8).write(to: fileURL)
        let shrank = await Support.serializationError { _ = try await encoded(form) }
        guard case .bodyPartLengthMismatch(4, 2) = shrank else {
            Issue.record("expected bodyPartLengthMismatch(4, 2), got \(String(describing: shrank))")
            return
        }
    }

    @Test func fileRemovedBeforeStreamingFails() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let fileURL = directory.file("gone.txt")
        try Data("1234".utf8).write(to: fileURL)
        var form = MultipartFormData(boundary: "B")
        try form.append(fileURL: fileURL, name: "f")
        try FileManager.default.removeItem(at: fileURL)
        let error = await Support.serializationError { _ = try await encoded(form) }
        guard case .fileNotReadable(fileURL, _) = error else {
            Issue.record("expected fileNotReadable, got \(String(describing: error))")
            return
        }
    }
}
