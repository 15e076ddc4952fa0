import Foundation
import Tapedeck
import TapedeckCore
import TapedeckCurl

// The client half of Tools/bench/compare-download.sh and session-transfers.sh. It links only the client stack
// (no stub server, no swift-crypto), so the process the scripts time and measure is what a client application is.
//
//   tapedeck-bench-client download URL FILE            one GET with responseBody .file(FILE)
//   tapedeck-bench-client gets URL COUNT                COUNT sequential GETs on one CurlTransport, from a task that
//                                                       prefers the transport's executor (the documented way to run
//                                                       sequential requests: no thread hop per request)
//   tapedeck-bench-client gets-pool URL COUNT           the same from the global concurrent executor (the default)
//   tapedeck-bench-client session-gets URL COUNT        COUNT sequential `HTTPSessionManager.get`s (JSON serializer)
//                                                       over one CurlTransport, from the global executor
//   tapedeck-bench-client session-gets-loop URL COUNT   the same from a task that prefers the transport's executor
//   tapedeck-bench-client session-download URL FILE    a SessionManager download task moved to FILE
//   tapedeck-bench-client session-upload URL FILE      a SessionManager upload task streaming FILE (PUT)
//   tapedeck-bench-client session-multipart URL FILE   an HTTPSessionManager multipart POST of FILE
//
// Each prints one line of `key=value` pairs (in-process figures; the scripts time whole processes).

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("tapedeck-bench-client: \(message)\n".utf8))
    exit(1)
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
}

func download(url: URL, to file: URL) async throws {
    let transport = CurlTransport()
    let start = ContinuousClock.now
    let response = try await transport.send(HTTPRequest(url: url, responseBody: .file(file)))
    let elapsed = seconds(ContinuousClock.now - start)
    guard response.statusCode == 200 else { fail("GET \(url) answered \(response.statusCode)") }
    let bytes = response.body.byteCount
    print("bytes=\(bytes) seconds=\(elapsed) mib_per_s=\(Double(bytes) / 1_048_576 / elapsed)")
}

func gets(url: URL, count: Int, transport: CurlTransport) async throws {
    let request = HTTPRequest(url: url)
    var reused = 0
    let start = ContinuousClock.now
    for _ in 0..<count {
        let response = try await transport.send(request)
        guard response.statusCode == 200 else { fail("GET \(url) answered \(response.statusCode)") }
        if response.metrics.connectionReused { reused += 1 }
    }
    let elapsed = seconds(ContinuousClock.now - start)
    print("requests=\(count) reused=\(reused) seconds=\(elapsed) per_request_us=\(elapsed / Double(count) * 1e6)")
}

/// `count` sequential GETs of `url` through the client stack: base URL, request and JSON response serializers.
func sessionGets(url: URL, count: Int, transport: CurlTransport) async throws {
    let api = HTTPSessionManager(baseURL: url.deletingLastPathComponent(), transport: transport)
    let path = url.lastPathComponent
    let start = ContinuousClock.now
    for _ in 0..<count {
        let result = try await api.get(path)
        guard result.response?.statusCode == 200, result.value != nil else { fail("GET \(url) gave \(result)") }
    }
    let elapsed = seconds(ContinuousClock.now - start)
    print("requests=\(count) seconds=\(elapsed) per_request_us=\(elapsed / Double(count) * 1e6)")
}

/// Prints the figures of a finished session task, or fails with its error.
func report(_ result: SessionTaskResult, bytes: Int64, since start: ContinuousClock.Instant) {
    let elapsed = seconds(ContinuousClock.now - start)
    if let error = result.error { fail("\(error)") }
    print("bytes=\(bytes) seconds=\(elapsed) mib_per_s=\(Double(bytes) / 1_048_576 / elapsed)")
}

func sessionDownload(url: URL, to file: URL) async {
    let manager = SessionManager(transport: CurlTransport())
    let start = ContinuousClock.now
    let task = manager.downloadTask(with: HTTPRequest(url: url)) { _, _ in file }
    task.resume()
    let result = await task.result
    let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.int64Value ?? -1
    report(result, bytes: size, since: start)
}

func fileSize(_ file: URL) -> Int64 {
    guard let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.int64Value else {
        fail("cannot read \(file.path)")
    }
    return size
}

/// Checks the server's answer (the number of body bytes it received) against what was sent.
func checkEcho(_ result: SessionTaskResult, expected: Int64) {
    guard let data = result.data, let received = Int64(String(decoding: data, as: UTF8.self)) else {
        fail("the server did not say how many bytes it received")
    }
    if received < expected { fail("the server received \(received) bytes, expected at least \(expected)") }
}

func sessionUpload(url: URL, from file: URL) async {
    let manager = SessionManager(transport: CurlTransport(), responseSerializer: HTTPResponseSerializer())
    let size = fileSize(file)
    let start = ContinuousClock.now
    let task = manager.uploadTask(with: HTTPRequest(method: .put, url: url), from: .file(file))
    task.resume()
    let result = await task.result
    report(result, bytes: size, since: start)
    checkEcho(result, expected: size)
}

func sessionMultipart(url: URL, from file: URL) async throws {
    let manager = HTTPSessionManager(transport: CurlTransport(), responseSerializer: HTTPResponseSerializer())
    let size = fileSize(file)
    let start = ContinuousClock.now
    let result = try await manager.post(url.absoluteString, parameters: ["name": "bench"], constructingBody: { form in
        try form.append(fileURL: file, name: "file")
    })
    report(result, bytes: size, since: start)
    checkEcho(result, expected: size)
}

let arguments = CommandLine.arguments
switch arguments.dropFirst().first {
case "download" where arguments.count == 4:
    guard let url = URL(string: arguments[2]) else { fail("bad URL \(arguments[2])") }
    try await download(url: url, to: URL(fileURLWithPath: arguments[3]))
case "gets" where arguments.count == 4, "gets-pool" where arguments.count == 4,
     "session-gets" where arguments.count == 4, "session-gets-loop" where arguments.count == 4:
    guard let url = URL(string: arguments[2]), let count = Int(arguments[3]), count > 0 else {
        fail("usage: \(arguments[1]) URL COUNT")
    }
    let transport = CurlTransport()
    let throughClient = arguments[1].hasPrefix("session-")
    let loop: @Sendable () async throws -> Void = {
        if throughClient {
            try await sessionGets(url: url, count: count, transport: transport)
        } else {
            try await gets(url: url, count: count, transport: transport)
        }
    }
    // `gets` and `session-gets-loop` run on the transport's executor; the other two from the global one.
    if arguments[1] == "gets" || arguments[1] == "session-gets-loop" {
        try await withTaskExecutorPreference(transport.executor) { try await loop() }
    } else {
        try await loop()
    }
case "session-download" where arguments.count == 4:
    guard let url = URL(string: arguments[2]) else { fail("bad URL \(arguments[2])") }
    await sessionDownload(url: url, to: URL(fileURLWithPath: arguments[3]))
case "session-upload" where arguments.count == 4:
    guard let url = URL(string: arguments[2]) else { fail("bad URL \(arguments[2])") }
    await sessionUpload(url: url, from: URL(fileURLWithPath: arguments[3]))
case "session-multipart" where arguments.count == 4:
    guard let url = URL(string: arguments[2]) else { fail("bad URL \(arguments[2])") }
    try await sessionMultipart(url: url, from: URL(fileURLWithPath: arguments[3]))
default:
    fail("usage: tapedeck-bench-client download URL FILE | gets URL COUNT | gets-pool URL COUNT | session-gets URL COUNT"
        + " | session-gets-loop URL COUNT | session-download URL FILE"
        + " | session-upload URL FILE | session-multipart URL FILE")
}
