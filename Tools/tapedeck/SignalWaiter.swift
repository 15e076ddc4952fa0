import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Turns SIGINT and SIGTERM into an async value instead of killing the process.
///
/// The handler is installed with `sigaction` before `init` returns, so a signal sent as soon as the command says it
/// is ready ("Press Ctrl-C to stop.") is never lost. (A dispatch signal source registers itself later, on the
/// manager thread; the signal had to be ignored in between, and one sent in that window was dropped for good.) The
/// handler only writes the signal's number to a pipe, the one thing a signal handler may safely do; a thread reads
/// the pipe and hands the number on.
///
/// ```swift
/// let waiter = SignalWaiter(signals: [SIGINT, SIGTERM])
/// print("Press Ctrl-C to stop.")
/// let received = await waiter.next()
/// ```
final class SignalWaiter: Sendable {
    private let stream: AsyncStream<Int32>

    init(signals: [Int32]) {
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        self.stream = stream
        let readEnd = SignalPipe.shared.readEnd
        Thread.detachNewThread {
            var number: Int32 = 0
            while true {
                let count = read(readEnd, &number, MemoryLayout<Int32>.size)
                if count == MemoryLayout<Int32>.size {
                    continuation.yield(number)
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
        for number in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                var number = number
                _ = write(SignalPipe.writeEnd, &number, MemoryLayout<Int32>.size)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
    }

    /// The next signal received.
    func next() async -> Int32 {
        for await number in stream { return number }
        return SIGTERM
    }
}

/// The pipe a signal handler writes the signal's number to.
private struct SignalPipe: Sendable {
    static let shared = SignalPipe()
    /// Read by the handler, which cannot reach `shared` safely (its first use may allocate): set once, before any
    /// handler is installed.
    nonisolated(unsafe) static var writeEnd: Int32 = -1
    let readEnd: Int32

    private init() {
        var ends: [Int32] = [-1, -1]
        _ = pipe(&ends)
        readEnd = ends[0]
        SignalPipe.writeEnd = ends[1]
    }
}
