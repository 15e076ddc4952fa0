import Foundation
import Glibc
import TapedeckStubServer

/// Raw HTTP bytes into the stub server, in process: each input is written to a fresh loopback connection to one
/// long-lived ``StubServer`` (its stubs match on method, path templates, query, headers and every body kind, and
/// answer with templates that read the request), the writing side is shut down, and whatever the server answers is
/// read until it closes. An answer, when there is one, must start with an HTTP/1 status line. `run.sh` runs this
/// target without leak detection: the server keeps request bodies alive between inputs, and LeakSanitizer misses
/// references to a `Data`'s storage (Tools/Sanitizers/EnumPayloadLeak), so it would report those bodies as leaks.
enum StubServerHTTPTarget {
    static let target = FuzzTarget(
        name: "stub-server-http",
        summary: "raw bytes over a loopback connection to an in-process StubServer; answers start with HTTP/1"
    ) { data in
        let answer = LoopbackExchange.send(data, toPort: server.port)
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

/// One request over a fresh loopback TCP connection, with send and receive timeouts so that no input can hang the
/// fuzzer: everything is written, the sending side shut down, and the answer read until the server closes.
enum LoopbackExchange {
    static let timeout = timeval(tv_sec: 3, tv_usec: 0)

    static func send(_ bytes: Data, toPort port: UInt16) -> Data {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { fatalError("socket: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var limit = timeout
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { fatalError("connect to the stub server: \(String(cString: strerror(errno)))") }
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.send(descriptor, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { return }  // the server closed early (e.g. after a 400): read what it said
                offset += written
            }
        }
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
}
