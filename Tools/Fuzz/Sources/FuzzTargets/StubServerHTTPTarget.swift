import Foundation
import Glibc
@testable import TapedeckStubServer

/// Raw HTTP bytes into the stub server, in process: each input is written to a fresh connection to one long-lived
/// ``StubServer`` (its stubs match on method, path templates, query, headers and every body kind, and answer with
/// templates that read the request), the writing side is shut down, and whatever the server answers is read until
/// it closes. An answer, when there is one, must start with an HTTP/1 status line.
///
/// The connection is one end of a Unix socket pair whose other end the server's daemon serves as an accepted
/// connection (`StubServer.socketPairConnection()`): the same libmicrohttpd parsing, stub matching and response
/// writing as over TCP, without a TCP handshake and teardown per input. `run.sh` runs this target without leak
/// detection: the server keeps request bodies alive between inputs, and LeakSanitizer misses references to a
/// `Data`'s storage (Tools/Sanitizers/EnumPayloadLeak), so it would report those bodies as leaks.
enum StubServerHTTPTarget {
    static let target = FuzzTarget(
        name: "stub-server-http",
        summary: "raw bytes over a socket pair into an in-process StubServer; answers start with HTTP/1"
    ) { data in
        guard let connection = server.socketPairConnection() else {
            fatalError("the stub server took no socket-pair connection: \(String(cString: strerror(errno)))")
        }
        let answer = SocketExchange.send(data, over: connection)
        FuzzCheck.require(answer.isEmpty || answer.starts(with: Data("HTTP/1.".utf8)),
                          "the server answered with \(answer.prefix(40).debugDescription) bytes that are no status line")
    }

    /// Started on first use and kept for the process: the same stubs for every input.
    private static let server: StubServer = {
        let configuration = StubServer.Configuration(
            threadCount: 1, journalCapacity: 16, maximumBodyInMemory: 64 << 10, connectionTimeout: 2
        )
        do {
            let server = try StubServer(configuration: configuration)
            for stub in try Stub.decodeList(Data(stubDefinitions.utf8)) { _ = server.add(stub) }
            return server
        } catch {
            fatalError("the fuzz target's stub server did not start: \(error)")
        }
    }()

    /// Stubs that make the server parse every part of a request. No regular-expression conditions: LeakSanitizer
    /// does not see a class reference kept inside a multi-payload enum (Swift stores the case in the pointer's
    /// spare bits; Tools/Sanitizers/EnumPayloadLeak shows it), so the compiled expressions of this process-long
    /// server would be reported as leaks on the first input. The `stub-definition` target covers regex decoding.
    private static let stubDefinitions = #"""
    [
      {"id": "template", "request": {"method": "GET", "pathTemplate": "/users/{id}/**"},
       "response": {"status": 200, "headers": {"X-User": "{{path.id}}", "X-Q": "{{query.q}}", "X-H": "{{header.X-Trace}}"},
                    "body": "{{method}} {{path}} {{path.id}} {{query.q}} {{body}}", "template": true}},
      {"id": "query-headers", "request": {"path": "/search",
        "query": {"q": {"contains": "a"}, "page": {"contains": "2"}, "debug": {"absent": true}},
        "headers": {"Accept": {"contains": "json"}, "X-Key": {"present": true}}},
       "response": {"status": 200, "jsonBody": {"found": true}}},
      {"id": "json", "request": {"method": "POST", "path": "/json", "body": {"jsonPartial": {"name": "Ada", "tags": ["x"]}}},
       "response": {"status": 201, "body": "{{json.name}} {{json.tags.0}}", "template": true}},
      {"id": "json-equal", "request": {"method": "PUT", "pathTemplate": "/json/{name}", "body": {"json": {"a": [1, 2.5, null, true]}}},
       "response": {"status": 204}},
      {"id": "form", "request": {"method": "POST", "path": "/form", "body": {"form": {"a": "1", "b": {"contains": "x"}}}},
       "response": {"status": 200, "body": "form"}},
      {"id": "multipart", "request": {"method": "POST", "path": "/upload",
        "body": {"multipart": [{"name": "file", "fileName": {"contains": "."}, "contentType": "text/plain", "body": {"contains": "hi"}}]}},
       "response": {"status": 200, "body": "uploaded"}},
      {"id": "body-contains", "request": {"method": "PATCH", "body": {"contains": "="}},
       "response": {"status": 200, "base64Body": "AAEC"}},
      {"id": "scenario-start", "request": {"method": "POST", "path": "/flow"},
       "response": {"status": 202, "body": "started"}, "scenario": {"name": "flow", "requiredState": "Started", "newState": "next"}},
      {"id": "scenario-next", "request": {"method": "POST", "path": "/flow"},
       "response": {"status": 200, "body": "next"}, "scenario": {"name": "flow", "requiredState": "next", "newState": "Started"}},
      {"id": "chunked", "request": {"method": "GET", "path": "/chunked"},
       "response": {"status": 200, "body": "abcdefghij", "chunked": {"bytesPerChunk": 3, "intervalMilliseconds": 0}}}
    ]
    """#
}

/// One request over a connected Unix stream socket, with send and receive timeouts so that no input can hang the
/// fuzzer: everything is written, the sending side shut down once the server has read it, and the answer read until
/// the server closes. Closes the socket.
enum SocketExchange {
    static let timeout = timeval(tv_sec: 3, tv_usec: 0)

    static func send(_ bytes: Data, over descriptor: Int32) -> Data {
        defer { close(descriptor) }
        var limit = timeout
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.send(descriptor, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { return }  // the server closed early (e.g. after a 400): read what it said
                offset += written
            }
        }
        waitUntilRead(descriptor)
        shutdown(descriptor, Int32(SHUT_WR))
        var answer = Data()
        var chunk = [UInt8](repeating: 0, count: 16 << 10)
        while true {
            let count = recv(descriptor, &chunk, chunk.count, 0)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            answer.append(contentsOf: chunk[0..<count])
        }
        return answer
    }

    /// Waits until the server has read every byte sent (`TIOCOUTQ`: what the peer has not read yet), has answered,
    /// or a second has passed. libmicrohttpd watches its sockets edge-triggered and takes a short read as "nothing
    /// more to read", so an end of input that arrives together with the last bytes goes unseen until the
    /// connection times out (seconds): most fuzzed inputs are incomplete requests, and each waited out the timeout.
    /// Shut down after the server has read, the end of input is news, as from a client that sends, waits, then
    /// closes its side.
    static func waitUntilRead(_ descriptor: Int32) {
        let deadline = ContinuousClock.now + .seconds(1)
        var unread: Int32 = 0
        while ioctl(descriptor, UInt(TIOCOUTQ), &unread) == 0, unread > 0, ContinuousClock.now < deadline {
            var answered = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            if poll(&answered, 1, 0) > 0 { return }
            usleep(20)
        }
    }
}
