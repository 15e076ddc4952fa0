import Foundation
import TapedeckWebSocket

/// `replay [MESSAGES] [RUNS]`: replays, in process, a conversation of MESSAGES messages (half sent by the client,
/// each answered by the server, then the close handshake) RUNS times, and prints each run's milliseconds, then
/// the median, min and max. `push [MESSAGES] [RUNS]`: the same with the server pushing every message after one
/// client message. `echo URL COUNT`: COUNT sequential round trips (a 32-byte text, its echo) over a live
/// connection, printing the seconds they took. `serve COUNT`: the stub server playing a recorded conversation of
/// COUNT such round trips (again for every connection), printing its port, until standard input closes.
/// `stream [MIB] [KIB] [SECONDS]`: the peak memory of a 1 GiB binary stream through the stub server (``StreamMemory``).
@main
struct WebSocketBench {
    static func main() async throws {
        let arguments = Array(CommandLine.arguments.dropFirst())
        switch arguments.first {
        case "replay", "push":
            let messages = arguments.count > 1 ? Int(arguments[1]) ?? 10_000 : 10_000
            let runs = arguments.count > 2 ? Int(arguments[2]) ?? 15 : 15
            try await replay(messages: messages, runs: runs, push: arguments[0] == "push")
        case "echo":
            guard arguments.count == 3, let url = URL(string: arguments[1]), let count = Int(arguments[2]) else { usage() }
            try await echo(url: url, count: count)
        case "serve":
            guard arguments.count == 2, let count = Int(arguments[1]) else { usage() }
            try ServedEcho.run(roundTrips: count)
        case "stream":
            let numbers = arguments.dropFirst().compactMap { Int($0) }.filter { $0 > 0 }
            guard numbers.count == arguments.count - 1 else { usage() }
            func number(_ index: Int, _ fallback: Int) -> Int { index < numbers.count ? numbers[index] : fallback }
            try await StreamMemory.run(totalMiB: number(0, 1024), messageKiB: number(1, 64), seconds: Double(number(2, 600)))
        default:
            usage()
        }
    }

    static func usage() -> Never {
        FileHandle.standardError.write(Data("usage: tapedeck-bench-websocket replay|push [MESSAGES] [RUNS] | echo URL COUNT | serve COUNT | stream [MIB] [KIB] [SECONDS]\n".utf8))
        exit(2)
    }

    static func conversation(messages: Int, push: Bool) -> WebSocketConversation {
        typealias Frame = WebSocketConversation.Frame
        var frames: [Frame] = []
        if push {
            frames.append(Frame(direction: .client, kind: .text("subscribe"), offset: 0))
            for index in 0..<messages { frames.append(Frame(direction: .server, kind: .text("{\"tick\":\(index)}"), offset: 0)) }
        } else {
            for index in 0..<messages / 2 {
                frames.append(Frame(direction: .client, kind: .text("{\"q\":\(index)}"), offset: 0))
                frames.append(Frame(direction: .server, kind: .text("{\"a\":\(index)}"), offset: 0))
            }
        }
        frames.append(Frame(direction: .client, kind: .close(WebSocketClose(code: .normalClosure)), offset: 0))
        frames.append(Frame(direction: .server, kind: .close(WebSocketClose(code: .normalClosure)), offset: 0))
        return WebSocketConversation(
            url: URL(string: "ws://bench.invalid/")!, requestHeaders: [:], response: WebSocketUpgradeResponseHead(status: 101), frames: frames)
    }

    static func replay(messages: Int, runs: Int, push: Bool) async throws {
        let conversation = conversation(messages: messages, push: push)
        var milliseconds: [Double] = []
        for _ in 0..<runs {
            let clock = ContinuousClock()
            var received = 0
            let elapsed = try await clock.measure {
                let socket = WebSocket.replay(conversation)
                var iterator = socket.messages.makeAsyncIterator()
                if push {
                    try await socket.send(.text("subscribe"))
                    while received < messages, try await iterator.next() != nil { received += 1 }
                } else {
                    for index in 0..<messages / 2 {
                        try await socket.send(.text("{\"q\":\(index)}"))
                        if try await iterator.next() != nil { received += 2 }
                    }
                }
                _ = await socket.close()
            }
            guard received == messages else { throw CancellationError() }
            milliseconds.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
        }
        for value in milliseconds { print(String(format: "run %.2f ms", value)) }
        let sorted = milliseconds.sorted()
        print(String(format: "%@ %d messages: median %.2f ms (min %.2f, max %.2f, %d runs)",
                     push ? "push" : "replay", messages, sorted[sorted.count / 2], sorted[0], sorted[sorted.count - 1], sorted.count))
    }

    static func echo(url: URL, count: Int) async throws {
        let socket = try await WebSocket.connect(to: url)
        var iterator = socket.messages.makeAsyncIterator()
        let payload = String(repeating: "x", count: 32)
        let clock = ContinuousClock()
        let elapsed = try await clock.measure {
            for _ in 0..<count {
                try await socket.send(.text(payload))
                guard try await iterator.next() != nil else { throw CancellationError() }
            }
        }
        _ = await socket.close()
        print(String(format: "%.6f", Double(elapsed.components.attoseconds) / 1e18 + Double(elapsed.components.seconds)))
    }
}
