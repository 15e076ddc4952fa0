import Foundation
import TapedeckStubServer
import TapedeckWebSocket

/// `stream [TOTAL_MIB] [MESSAGE_KIB] [SECONDS]`: Tapedeck's client sends TOTAL_MIB MiB (1024 by default) of binary
/// messages of MESSAGE_KIB KiB (64) to a stubbed route of the stub server in the same process, which answers each
/// with a binary message of the same size, over loopback. It prints the process's peak resident set (`VmHWM` of
/// `/proc/self/status`, client and server together) once connected, after the first 64 MiB and at the end, and
/// whether the peak stayed flat from 64 MiB on (within 5 % or 4 MiB). It stops after SECONDS (600) and says how far
/// it got.
enum StreamMemory {
    struct Failure: Error, CustomStringConvertible { let description: String }

    static func run(totalMiB: Int, messageKiB: Int, seconds: Double) async throws {
        let size = messageKiB << 10
        let payload = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        let server = try StubServer()
        defer { server.stop() }
        server.webSocket("/stream", WebSocketStub(rules: [.init(nil, [.send(.binary(payload))])]))
        let socket = try await WebSocket.connect(to: URL(string: "ws://127.0.0.1:\(server.port)/stream")!)
        var iterator = socket.messages.makeAsyncIterator()
        let connected = peakKiB()
        let total = totalMiB << 20, checkpoint = 64 << 20
        var sent = 0
        var atCheckpoint: Int?
        let clock = ContinuousClock()
        let start = clock.now, deadline = start + .seconds(seconds)
        while sent < total, clock.now < deadline {
            try await socket.send(.binary(payload))
            guard case .binary(let answer)? = try await iterator.next(), answer.count == size else {
                throw Failure(description: "the server's answer after \(sent >> 20) MiB was not \(size) bytes of binary")
            }
            sent += size
            if atCheckpoint == nil, sent >= checkpoint { atCheckpoint = peakKiB() }
        }
        let elapsed = clock.now - start
        let ending = await socket.close()
        let end = peakKiB()
        let secondsTaken = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print(String(format: "stream: %d MiB each way in %d KiB binary messages (%d round trips) in %.1f s, %.0f MiB/s each way; %@",
                     sent >> 20, messageKiB, sent / size, secondsTaken, Double(sent >> 20) / secondsTaken, "\(ending)"))
        if sent < total { print("stopped at the \(Int(seconds)) s limit, before \(totalMiB) MiB") }
        guard let atCheckpoint else {
            print(String(format: "peak RSS (VmHWM): %.1f MiB connected, %.1f MiB at the end (never reached 64 MiB)", mib(connected), mib(end)))
            return
        }
        let growth = end - atCheckpoint
        let flat = Double(growth) <= max(4096, Double(atCheckpoint) * 0.05)
        print(String(format: "peak RSS (VmHWM): %.1f MiB connected, %.1f MiB after 64 MiB, %.1f MiB after %d MiB: %+.1f MiB (%+.1f%%) from 64 MiB on: %@",
                     mib(connected), mib(atCheckpoint), mib(end), sent >> 20, mib(growth), Double(growth) * 100 / Double(atCheckpoint),
                     flat ? "flat" : "NOT flat"))
        if !flat { exit(1) }
    }

    /// The process's peak resident set so far, in KiB (`VmHWM`).
    static func peakKiB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let value = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap({ Int($0) })
        else { return 0 }
        return value
    }

    static func mib(_ kib: Int) -> Double { Double(kib) / 1024 }
}
