import Foundation
import Tapedeck
import TapedeckTestSupport
import TapedeckCore

extension NetworkReachabilityManager {
    /// The first status other than `unknown` the manager reaches, or `nil` after `timeout` (a safety net against a
    /// status that never comes, generous so that a loaded machine never trips it).
    func firstKnownStatus(within timeout: Duration = .seconds(120)) async -> Status? {
        await statuses(within: timeout) { $0 != .unknown }
    }

    /// The first status satisfying `condition`, or `nil` after `timeout`.
    func statuses(within timeout: Duration, until condition: @escaping @Sendable (Status) -> Bool) async -> Status? {
        await firstElement(of: statuses(), within: timeout, where: condition)
    }
}

/// Lines a child process writes, collected by a reader thread and awaited with a time bound.
final class LineCollector: Sendable {
    private struct State {
        var lines: [String] = []
        var cursor = 0
        var closed = false
        var waiter: (id: Int, continuation: CheckedContinuation<String?, Never>)?
        var nextWaiter = 0
    }

    private let state = Locked(State())

    init(reading handle: FileHandle) {
        let thread = Thread { [self] in
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                pending += chunk
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    deliver(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                    pending = Data(pending[(newline + 1)...])
                }
            }
            if !pending.isEmpty { deliver(String(decoding: pending, as: UTF8.self)) }
            let waiter = state.withLock { state in
                state.closed = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.continuation.resume(returning: nil)
        }
        thread.start()
    }

    /// Every line so far.
    var transcript: [String] { state.withLock { $0.lines } }

    /// The next unread line, or `nil` when the writer closed or `timeout` passed first.
    func nextLine(within timeout: Duration) async -> String? {
        await withCheckedContinuation { continuation in
            let id = state.withLock { state -> Int? in
                if state.cursor < state.lines.count {
                    defer { state.cursor += 1 }
                    continuation.resume(returning: state.lines[state.cursor])
                    return nil
                }
                if state.closed {
                    continuation.resume(returning: nil)
                    return nil
                }
                state.nextWaiter += 1
                state.waiter = (state.nextWaiter, continuation)
                return state.nextWaiter
            }
            guard let id else { return }
            let nanoseconds = timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds))) { [self] in
                let waiter = state.withLock { state -> CheckedContinuation<String?, Never>? in
                    guard let waiter = state.waiter, waiter.id == id else { return nil }
                    state.waiter = nil
                    return waiter.continuation
                }
                waiter?.resume(returning: nil)
            }
        }
    }

    private func deliver(_ line: String) {
        let waiter = state.withLock { state -> CheckedContinuation<String?, Never>? in
            state.lines.append(line)
            guard let waiter = state.waiter else { return nil }
            state.waiter = nil
            state.cursor += 1
            return waiter.continuation
        }
        waiter?.resume(returning: line)
    }
}
