import Foundation
import Glibc
import Testing
import TapedeckCore
import TapedeckStubServer

/// Test fixtures shipped with this target.
enum Fixtures {
    static func url(_ name: String) -> URL {
        Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures")!
    }

    static func data(_ name: String) -> Data {
        try! Data(contentsOf: url(name))
    }

    static var localhostIdentity: TLSIdentity {
        try! TLSIdentity(certificateChainFile: url("localhost.pem"), privateKeyFile: url("localhost-key.pem"))
    }

    static var localhostPin: String {
        String(decoding: data("localhost.pin"), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Sends `count` GETs of `/item?N` at once (routed to echo their query) and returns each body by `N`.
func fetchItemsConcurrently(_ count: Int, from server: StubServer, over transport: some HTTPTransport) async throws -> [Int: String] {
    server.route(.get, "/item", handler: { request in .text(request.query ?? "") })
    return try await withThrowingTaskGroup(of: (Int, String).self) { group in
        for index in 0..<count {
            group.addTask {
                let response = try await transport.send(HTTPRequest(url: server.url("/item?\(index)")))
                return (index, String(decoding: response.data ?? Data(), as: UTF8.self))
            }
        }
        return try await group.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
    }
}

/// The process's resident memory, from /proc.
enum ProcessMemory {
    /// Current resident set size in bytes.
    static var residentBytes: Int64 { field("VmRSS") }
    /// Peak resident set size in bytes since the last ``resetPeak()``.
    static var peakResidentBytes: Int64 { field("VmHWM") }

    /// Resets the kernel's peak-RSS mark to the current RSS (`/proc/self/clear_refs`, value 5).
    static func resetPeak() {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }

    private static func field(_ name: String) -> Int64 {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
            let digits = line.split(separator: " ").dropFirst().first { Int64($0) != nil }
            return (digits.flatMap { Int64($0) } ?? 0) * 1024
        }
        return 0
    }
}

extension URLError.Code: @retroactive CustomTestStringConvertible {
    public var testDescription: String { "URLError(\(rawValue))" }
}

/// Every suite that opens sockets or starts threads nests in here and runs one test at a time, so memory,
/// thread and descriptor accounting sees only the test being measured.
@Suite(.serialized) enum Loopback {}
