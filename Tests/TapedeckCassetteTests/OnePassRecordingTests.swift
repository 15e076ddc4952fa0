import Foundation
import Testing
@testable import TapedeckCassette
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport

/// A body the upstream writes to a file is recorded as it arrives when the upstream reports its pieces
/// (``HTTPRequest/reportsFileBodyChunks``), and read back from the file only when it does not.
@Suite struct OnePassRecordingTests {
    /// Writes `file` to the destination and, when the request asks for them, reports `reported` as the pieces it
    /// wrote: the two differ, so that the recording shows which one it took.
    struct FileWritingTransport: HTTPTransport {
        let file: Data
        let reported: [Data]

        func send(_ request: HTTPRequest, onEvent: HTTPEventHandler?) async throws -> HTTPResponse {
            guard case .file(let destination) = request.responseBody else { throw URLError(.unsupportedURL) }
            let head = HTTPResponseHead(statusCode: 200, headers: ["Content-Type": "text/plain"], url: request.url)
            onEvent?(.responseHead(head))
            try file.write(to: destination)
            if request.reportsFileBodyChunks { for piece in reported { onEvent?(.bodyChunk(piece)) } }
            let response = HTTPResponse(head: head, body: .file(destination, byteCount: Int64(file.count)))
            onEvent?(.completed(response))
            return response
        }
    }

    /// A token first seen in a body streamed to a sidecar file (the session takes that body's index of secrets
    /// instead of indexing them again) is scrubbed from an interaction stored before, where nothing marked it.
    @Test func aSecretLearnedFromAStreamedBodyIsScrubbedFromEarlierInteractions() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let token = "tok-0123456789abcdef"
        let server = try StubServer()
        defer { server.stop() }
        server.route(.get, "/echo", response: StubResponse(body: .data(Data("your token is \(token)".utf8))))
        let export = #"{"session_token":"\#(token)","pad":"\#(String(repeating: "x", count: 200_000))"}"#
        server.route(.get, "/export", response: .json(Data(export.utf8)))
        let cassette = directory.cassette("learned.json")
        var configuration = CassetteConfiguration()
        configuration.sidecarThreshold = 2048
        let recorder = try CassetteTransport(cassette: cassette, mode: .all, upstream: CurlTransport(), configuration: configuration, environment: [:])
        _ = try await recorder.send(HTTPRequest(url: server.url("/echo")))
        // Downloaded to a file: the body is captured as curl writes it, through the streaming redaction.
        _ = try await recorder.send(HTTPRequest(url: server.url("/export"), responseBody: .file(directory.file("export.json"))))
        let journal = (try? Data(contentsOf: URL(fileURLWithPath: cassette.path + ".journal"))) ?? Data()
        #expect(!String(decoding: try Data(contentsOf: cassette) + journal, as: UTF8.self).contains(token))
        try recorder.finish()
        for file in try FileManager.default.subpathsOfDirectory(atPath: directory.url.path) where file != "export.json" {
            let contents = (try? Data(contentsOf: directory.url.appendingPathComponent(file))) ?? Data()
            #expect(!String(decoding: contents, as: UTF8.self).contains(token), "in \(file)")
        }
        let stored = try CassetteFile.load(cassette).interactions
        #expect(stored.count == 2)
        #expect(stored.first?.response?.body.inlineData.map { String(decoding: $0, as: UTF8.self).hasPrefix("your token is ") } == true)
        #expect(stored.last?.response?.body.sidecarPath != nil)
    }

    @Test(arguments: [1 << 10, 64 << 10])
    func reportedPiecesAreRecordedAndTheFileIsNotReadBack(size: Int) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let reported = Data(String(repeating: "r", count: size).utf8)
        let upstream = FileWritingTransport(file: Data(String(repeating: "f", count: size).utf8),
                                            reported: stride(from: 0, to: size, by: 4096).map { reported.subdata(in: $0..<min(size, $0 + 4096)) })
        let cassette = directory.cassette("pieces.json")
        var configuration = CassetteConfiguration()
        configuration.sidecarThreshold = 2048
        let recorder = try CassetteTransport(cassette: cassette, mode: .all, upstream: upstream, configuration: configuration, environment: [:])
        _ = try await recorder.send(HTTPRequest(url: URL(string: "http://127.0.0.1:9/export")!, responseBody: .file(directory.file("out.txt"))))
        try recorder.finish()
        let body = try #require(try CassetteFile.load(cassette).interactions.first?.response?.body)
        #expect(try CassetteFile.bodyData(body, cassette: cassette) == reported)
    }

    @Test func aTransportThatReportsNothingHasItsFileReadBack() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = Data(String(repeating: "f", count: 8192).utf8)
        let cassette = directory.cassette("file.json")
        let recorder = try CassetteTransport(cassette: cassette, mode: .all, upstream: FileWritingTransport(file: file, reported: []), environment: [:])
        _ = try await recorder.send(HTTPRequest(url: URL(string: "http://127.0.0.1:9/export")!, responseBody: .file(directory.file("out.txt"))))
        try recorder.finish()
        let body = try #require(try CassetteFile.load(cassette).interactions.first?.response?.body)
        #expect(try CassetteFile.bodyData(body, cassette: cassette) == file)
    }

    /// A sidecar body replayed to a file: to a new file whole, and after the kept bytes of a resumed download answered
    /// `206`, with progress up to the whole body.
    @Test func aSidecarBodyReplaysIntoAFileAndAfterTheKeptBytes() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cassette = directory.cassette("replay.json")
        let body = Data((0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let folder = CassetteFile.sidecarFolder(cassette)
        try FileManager.default.createDirectory(at: directory.url.appendingPathComponent(folder), withIntermediateDirectories: true)
        try body.write(to: CassetteFile.sidecarURL(folder + "/body.bin", cassette: cassette))
        let url = "http://127.0.0.1:9/big"
        func interaction(_ status: Int) -> Interaction {
            Interaction(request: .init(method: "GET", url: url),
                        outcome: .response(.init(statusCode: status, body: CassetteBody(sidecar: folder + "/body.bin", byteCount: Int64(body.count)))))
        }
        try CassetteFile.save(Cassette(interactions: [interaction(200), interaction(206)]), to: cassette)
        let player = try CassetteTransport(cassette: cassette, mode: .replay, environment: [:])
        let whole = directory.file("whole.bin")
        let log = TransportEventLog()
        _ = try await player.send(HTTPRequest(url: URL(string: url)!, responseBody: .file(whole)), onEvent: log.handler)
        #expect(try Data(contentsOf: whole) == body)
        let progress = log.events.compactMap { event -> Int64? in if case .downloadProgress(let p) = event { p.completed } else { nil } }
        #expect(progress.last == Int64(body.count))
        let partial = directory.file("partial.bin")
        try Data("kept".utf8).write(to: partial)
        _ = try await player.send(HTTPRequest(url: URL(string: url)!, responseBody: .resumingFile(partial, existingLength: 4)))
        #expect(try Data(contentsOf: partial) == Data("kept".utf8) + body)
    }

    /// Sends a streamed body past the sidecar threshold, then fails with `error` before the answer ends.
    struct FailingStream: HTTPTransport {
        let error: URLError

        func send(_ request: HTTPRequest, onEvent: HTTPEventHandler?) async throws -> HTTPResponse {
            let head = HTTPResponseHead(statusCode: 200, headers: ["Content-Type": "text/plain"], url: request.url)
            onEvent?(.responseHead(head))
            for _ in 0..<4 { onEvent?(.bodyChunk(Data(repeating: UInt8(ascii: "x"), count: 4096))) }
            throw error
        }
    }

    /// A body that had started spilling to its sidecar folder when its exchange was cancelled leaves no temporary
    /// file there; one cut short by the network is recorded as far as it came, also with none left.
    @Test(arguments: [URLError.Code.cancelled, .networkConnectionLost])
    func anExchangeEndedEarlyLeavesNoTemporaryFile(code: URLError.Code) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cassette = directory.cassette("cut.json")
        var configuration = CassetteConfiguration()
        configuration.sidecarThreshold = 2048
        let recorder = try CassetteTransport(cassette: cassette, mode: .all, upstream: FailingStream(error: URLError(code)),
                                             configuration: configuration, environment: [:])
        await #expect(throws: URLError.self) {
            _ = try await recorder.send(HTTPRequest(url: URL(string: "http://127.0.0.1:9/stream")!, responseBody: .stream))
        }
        try recorder.finish()
        let folder = directory.url.appendingPathComponent(CassetteFile.sidecarFolder(cassette))
        let left = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        #expect(left.filter { $0.hasPrefix(".") }.isEmpty, "left behind: \(left)")
    }

    /// Over `CurlTransport`, a download to a file is captured from the pieces curl writes: the sidecar is the body,
    /// and a resumed download records the part it fetched.
    @Test func aCurlDownloadToAFileIsRecordedFromItsPieces() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try StubServer()
        defer { server.stop() }
        let text = (0..<300_000).map { "line \($0)\n" }.joined()
        let body = Data(text.utf8)
        server.route(.get, "/export", response: .text(text))
        let cassette = directory.cassette("curl.json")
        let recorder = try CassetteTransport(cassette: cassette, mode: .all, upstream: CurlTransport(), environment: [:])
        let download = directory.file("export.txt")
        let response = try await recorder.send(HTTPRequest(url: server.url("/export"), responseBody: .file(download)))
        #expect(response.statusCode == 200)
        try recorder.finish()
        #expect(try Data(contentsOf: download) == body)
        let stored = try #require(try CassetteFile.load(cassette).interactions.first?.response?.body)
        #expect(stored.sidecarPath != nil)
        #expect(try CassetteFile.bodyData(stored, cassette: cassette) == body)
        let folder = directory.url.appendingPathComponent(CassetteFile.sidecarFolder(cassette))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".") }.isEmpty, "a temporary file was left")
    }
}
