import Foundation
import Testing
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport

extension Loopback {
    @Suite struct ResumingDownloadTests {
        let transport = CurlTransport()
        let total: Int64 = 300_000

        @Test func aHonouredRangeIsAppendedAfterTheKeptBytes() async throws {
            try await withStubServer { server in
                let total = self.total
                server.route(.get, "/file") { .generatedHonoringRange(of: $0, totalLength: total) }
                let directory = try TemporaryDirectory()
                defer { directory.remove() }
                let file = directory.file("partial.bin")
                // A partial download of 1000 bytes, plus junk past it that must be cut off.
                try (StubBody.generatedBytes(from: 0, count: 1000) + Data(repeating: 0xEE, count: 50)).write(to: file)
                let request = HTTPRequest(url: server.url("/file"), headers: ["Range": "bytes=1000-"],
                                          responseBody: .resumingFile(file, existingLength: 1000))
                let response = try await transport.send(request)
                #expect(response.statusCode == 206)
                #expect(response.body == .file(file, byteCount: total))
                #expect(try Data(contentsOf: file) == StubBody.generatedBytes(from: 0, count: Int(total)))
            }
        }

        /// Asked to (``HTTPRequest/reportsFileBodyChunks``), the transport reports each piece it writes to the file,
        /// and only what it writes: a resumed download reports the fetched part, not the kept bytes.
        @Test func thePiecesWrittenToAFileAreReportedWhenAsked() async throws {
            try await withStubServer { server in
                let total = self.total
                server.route(.get, "/file") { .generatedHonoringRange(of: $0, totalLength: total) }
                let directory = try TemporaryDirectory()
                defer { directory.remove() }
                let file = directory.file("partial.bin")
                try StubBody.generatedBytes(from: 0, count: 1000).write(to: file)
                var request = HTTPRequest(url: server.url("/file"), headers: ["Range": "bytes=1000-"],
                                          responseBody: .resumingFile(file, existingLength: 1000))
                request.reportsFileBodyChunks = true
                let log = TransportEventLog()
                let response = try await transport.send(request, onEvent: log.handler)
                #expect(response.statusCode == 206)
                #expect(log.bodyChunks.reduce(Data(), +) == StubBody.generatedBytes(from: 1000, count: Int(total) - 1000))
                #expect(try Data(contentsOf: file) == StubBody.generatedBytes(from: 0, count: Int(total)))
                let quiet = TransportEventLog()
                _ = try await transport.send(HTTPRequest(url: server.url("/file"), responseBody: .file(directory.file("whole.bin"))), onEvent: quiet.handler)
                #expect(quiet.bodyChunks.isEmpty, "pieces reported without being asked for")
            }
        }

        @Test func aServerThatIgnoresRangeReplacesTheFile() async throws {
            try await withStubServer { server in
                server.route(.get, "/file", response: StubResponse(body: .generated(length: total)))
                let directory = try TemporaryDirectory()
                defer { directory.remove() }
                let file = directory.file("partial.bin")
                try Data(repeating: 0xEE, count: 5000).write(to: file)
                let request = HTTPRequest(url: server.url("/file"), headers: ["Range": "bytes=5000-"],
                                          responseBody: .resumingFile(file, existingLength: 5000))
                let response = try await transport.send(request)
                #expect(response.statusCode == 200)
                #expect(try Data(contentsOf: file) == StubBody.generatedBytes(from: 0, count: Int(total)))
            }
        }
    }
}

extension Loopback.ResumingDownloadTests {
    @Test func pacedRangesStartAtTheirOffset() async throws {
        try await withStubServer { server in
            let total = self.total
            server.route(.get, "/paced") { .generatedHonoringRange(of: $0, totalLength: total, pace: (50_000, .milliseconds(1))) }
            let response = try await transport.send(HTTPRequest(url: server.url("/paced"), headers: ["Range": "bytes=123-"]))
            #expect(response.statusCode == 206)
            #expect(response.headers["Content-Range"] == "bytes 123-\(total - 1)/\(total)")
            #expect(response.data == StubBody.generatedBytes(from: 123, count: Int(total) - 123))
        }
    }
}
