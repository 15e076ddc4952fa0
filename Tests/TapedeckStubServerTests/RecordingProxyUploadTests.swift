import Foundation
import Testing
import TapedeckCassette
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport
#if canImport(Glibc)
import Glibc
#endif

extension OnLoopback {
    /// The recording proxies send a long or chunked request body upstream while it arrives, and record it whole. No
    /// bound here depends on the machine's speed: the streaming test decides by order (the client sends its second
    /// piece only once the upstream has the first), with safety nets of minutes.
    @Suite struct RecordingProxyUploadTests {
        /// Which proxy records.
        enum Door: String, CaseIterable, Sendable {
            case reverse, forward
        }

        /// A proxy of `door` recording to `file`, and the transport a client uses to reach `upstream` through it.
        struct Recording {
            let client: CurlTransport
            let url: (String) -> URL
            let finish: () async throws -> CassetteSummary?
            let stop: () -> Void
        }

        static func recording(through door: Door, to upstream: URL, file: URL) throws -> Recording {
            switch door {
            case .reverse:
                let proxy = try StubServer()
                try proxy.recordProxy(upstream: upstream, cassette: file, mode: .all)
                return Recording(client: CurlTransport(), url: { proxy.url($0) }, finish: { try await proxy.finishRecording() },
                                 stop: { proxy.stop() })
            case .forward:
                let proxy = try ForwardProxy(cassette: file, mode: .record(.all))
                let client = CurlTransport(configuration: CurlTransport.Configuration(proxy: proxy.proxyURL.absoluteString))
                return Recording(client: client, url: { upstream.appendingPathComponent(String($0.dropFirst())) },
                                 finish: { try await proxy.finishRecording() }, stop: { proxy.stop() })
            }
        }

        /// A chunked body reaches the upstream piece by piece: the client sends its second piece only once the
        /// upstream has read the first, so a proxy that read the body whole before forwarding it would wait forever
        /// (here: until the five-minute safety net). The cassette holds the whole body, as sent.
        @Test(arguments: Door.allCases)
        func aChunkedBodyGoesUpstreamAsItArrives(door: Door) async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let upstream = try CountingUpstream()
            defer { upstream.stop() }
            let file = directory.cassette("upload.json")
            let recording = try Self.recording(through: door, to: upstream.baseURL, file: file)
            defer { recording.stop() }
            let first = StubBody.generatedBytes(from: 0, count: 100_000)
            let second = StubBody.generatedBytes(from: 100_000, count: 50_000)
            let firstReachedUpstream = Locked(false)
            let body = HTTPBodyStream(length: nil) {
                AsyncThrowingStream<Data, any Error> { continuation in
                    continuation.yield(first)
                    Task {
                        let deadline = ContinuousClock.now + .seconds(300)
                        while upstream.bodyBytes < first.count, ContinuousClock.now < deadline {
                            try? await Task.sleep(for: .milliseconds(5))
                        }
                        firstReachedUpstream.withLock { $0 = upstream.bodyBytes >= first.count }
                        continuation.yield(second)
                        continuation.finish()
                    }
                }
            }
            let request = HTTPRequest(method: .post, url: recording.url("/upload"), headers: ["Content-Type": "application/octet-stream"],
                                      body: .stream(body), timeoutInterval: 600)
            let response = try await recording.client.send(request)
            #expect(response.statusCode == 200)
            #expect(firstReachedUpstream.withLock { $0 }, "the upstream had the first piece before the client sent the second")
            #expect(String(decoding: response.data ?? Data(), as: UTF8.self) == "\(first.count + second.count)")
            _ = try await recording.finish()
            let recorded = try #require(try CassetteFile.load(file).interactions.first)
            #expect(try CassetteFile.bodyData(recorded.request.body, cassette: file) == first + second)
        }

        /// A client that goes away in the middle of its body ends the upstream transfer (the upstream sees the
        /// connection close rather than waiting for the rest), which is recorded as the failure it was.
        @Test func aClientThatLeavesMidBodyEndsTheUpstreamTransfer() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let upstream = try CountingUpstream()
            defer { upstream.stop() }
            let file = directory.cassette("upload.json")
            let proxy = try StubServer()
            defer { proxy.stop() }
            try proxy.recordProxy(upstream: upstream.baseURL, cassette: file, mode: .all)
            let piece = StubBody.generatedBytes(from: 0, count: 100_000)
            var message = Data("POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
            message += Data(String(piece.count, radix: 16).utf8) + Data("\r\n".utf8) + piece + Data("\r\n".utf8)
            let client = try RawClient(port: UInt16(proxy.baseURL.port!))
            client.send(message)
            let deadline = ContinuousClock.now + .seconds(300)
            while upstream.bodyBytes < piece.count, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
            #expect(upstream.bodyBytes == piece.count)
            client.close()
            while !upstream.sawClose, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
            #expect(upstream.sawClose, "the upstream transfer ended when its client left")
            // Recorded as what it was: a request whose body could not be read to its end.
            #expect(try await proxy.finishRecording()?.interactionCount == 1)
            let recorded = try #require(try CassetteFile.load(file).interactions.first)
            guard case .failure(let failure) = recorded.outcome else {
                Issue.record("recorded \(recorded.outcome), not the failure")
                return
            }
            #expect(failure.message.contains("request body could not be read"), "\(failure.message)")
        }

        /// An upstream that answers before it reads the body (a `413`, a `401`) ends the exchange: the proxy drops
        /// the rest of the body as the client sends it (a client paused for back-pressure goes on), and the client
        /// gets the answer once its request is complete. Without that, the client stays paused and its request
        /// never completes (here: the two-minute idle timeout).
        @Test(arguments: Door.allCases)
        func anUpstreamThatAnswersBeforeTheBodyEndsIsRelayed(door: Door) async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let upstream = try CountingUpstream(answeringEarly: true)
            defer { upstream.stop() }
            let recording = try Self.recording(through: door, to: upstream.baseURL, file: directory.cassette("early.json"))
            defer { recording.stop() }
            let body = StubBody.generatedBytes(from: 0, count: 10 << 20)
            let response = try await recording.client.send(HTTPRequest(method: .post, url: recording.url("/upload"), body: .data(body),
                                                                       timeoutInterval: 120))
            #expect(response.statusCode == 413)
            #expect(response.data == Data("too long".utf8))
            _ = try await recording.finish()
        }

        /// A body longer than the proxy's `maximumBodyInMemory` (8 MiB by default) is forwarded and recorded whole (it
        /// was refused with a `413`), pausing the client whenever more than `StreamedUpload.limit` waits upstream.
        @Test(arguments: Door.allCases)
        func aBodyLongerThanTheMemoryLimitIsForwardedWhole(door: Door) async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let upstream = try StubServer()
            defer { upstream.stop() }
            upstream.route(.post, "/upload") { request in .text("\(request.bodyLength) \(request.bodySHA256)") }
            let file = directory.cassette("upload.json")
            let recording = try Self.recording(through: door, to: upstream.baseURL, file: file)
            defer { recording.stop() }
            let body = StubBody.generatedBytes(from: 0, count: 10 << 20)
            let response = try await recording.client.send(HTTPRequest(method: .post, url: recording.url("/upload"), body: .data(body),
                                                                       timeoutInterval: 600))
            #expect(response.statusCode == 200)
            #expect(String(decoding: response.data ?? Data(), as: UTF8.self) == "\(body.count) \(generatedSHA256(length: Int64(body.count)))")
            _ = try await recording.finish()
            let recorded = try #require(try CassetteFile.load(file).interactions.first)
            #expect(try CassetteFile.bodyData(recorded.request.body, cassette: file) == body)
        }
    }
}

/// An upstream that reads one request at a time off a plain socket and counts its body's bytes as they arrive,
/// answering with the count of the body it decoded once the request ends: what a proxy forwards, piece by piece.
final class CountingUpstream: Sendable {
    let baseURL: URL
    private let listener: Int32
    private let received = Locked(0)
    private let closed = Locked(false)

    /// Bytes of the body read so far (chunk framing excluded).
    var bodyBytes: Int { received.withLock { $0 } }
    /// Whether a connection closed before its request ended.
    var sawClose: Bool { closed.withLock { $0 } }

    /// Whether it answers `413` as soon as it has the head, before reading the body, and drops the rest.
    private let answersEarly: Bool

    init(answeringEarly: Bool = false) throws {
        answersEarly = answeringEarly
        let (fd, port) = try loopbackSocket(listening: true)
        listener = fd
        baseURL = URL(string: "http://127.0.0.1:\(port)")!
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "counting-upstream"
        thread.start()
    }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            serve(connection)
            close(connection)
        }
    }

    /// Reads one chunked request and answers it.
    private func serve(_ connection: Int32) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var bytes = Data()
        var decoder = ChunkCounter()
        var headEnd: Int?
        while true {
            let count = read(connection, &buffer, buffer.count)
            guard count > 0 else {
                closed.withLock { $0 = true }
                return
            }
            bytes.append(contentsOf: buffer[..<count])
            if headEnd == nil, let end = bytes.firstRange(of: Data("\r\n\r\n".utf8)) {
                if answersEarly {
                    reply(connection, status: "413 Content Too Large", body: "too long")
                    // Closing with unread bytes would reset the connection, and the proxy might then see the reset
                    // before the answer: read (and drop) what the proxy still sends until it closes, as a server
                    // that answers early should.
                    while read(connection, &buffer, buffer.count) > 0 {}
                    return
                }
                headEnd = end.upperBound
                decoder.feed(bytes[end.upperBound...])
            } else if headEnd != nil {
                decoder.feed(Data(buffer[..<count]))
            }
            if headEnd != nil { received.withLock { $0 = decoder.bodyBytes } }
            if decoder.ended { break }
        }
        reply(connection, status: "200 OK", body: "\(decoder.bodyBytes)")
    }

    private func reply(_ connection: Int32, status: String, body: String) {
        let text = "HTTP/1.1 \(status)\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        _ = text.utf8CString.withUnsafeBufferPointer { send(connection, $0.baseAddress, $0.count - 1, Int32(MSG_NOSIGNAL)) }
    }

    /// Follows chunked transfer coding, counting the body's bytes.
    struct ChunkCounter {
        private(set) var bodyBytes = 0
        private(set) var ended = false
        private var line = Data()
        /// Bytes of the current chunk still to come; `nil` while a size line is read.
        private var remaining: Int?
        /// CRLF bytes to skip after a chunk.
        private var skip = 0

        mutating func feed(_ data: Data) {
            for byte in data where !ended {
                if skip > 0 {
                    skip -= 1
                } else if let left = remaining {
                    bodyBytes += 1
                    remaining = left - 1 == 0 ? nil : left - 1
                    if remaining == nil { skip = 2 }
                } else if byte == UInt8(ascii: "\n") {
                    let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                    line = Data()
                    let size = Int(text.split(separator: ";").first.map(String.init) ?? "", radix: 16) ?? 0
                    if size == 0 { ended = true } else { remaining = size }
                } else {
                    line.append(byte)
                }
            }
        }
    }
}

/// A client that writes raw bytes to a loopback port and can leave at any moment.
final class RawClient: Sendable {
    private let fd: Int32

    init(port: UInt16) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
    }

    func send(_ data: Data) {
        data.withUnsafeBytes { bytes in
            var sent = 0
            while sent < bytes.count {
                let count = write(fd, bytes.baseAddress! + sent, bytes.count - sent)
                guard count > 0 else { return }
                sent += count
            }
        }
    }

    func close() { _ = Glibc.close(fd) }
}
