import CCurl
import Foundation
import Synchronization
import TapedeckCore

/// One thread driving a libcurl multi handle with `curl_multi_poll`; other threads talk to it only through a
/// mailbox and `curl_multi_wakeup`, so every easy handle is touched by this thread alone.
final class CurlEventLoop: Sendable {
    enum Command: Sendable {
        case start(id: UInt64, request: HTTPRequest, sink: TransferSink)
        case cancel(id: UInt64)
        /// A paused transfer can go on: its body pump has bytes, or its consumer's window opened.
        case resume(id: UInt64)
        /// A job of a task that prefers this loop as its executor (see ``CurlTransport/executor``).
        case run(UnownedJob)
        case shutdown
    }

    /// The multi handle, shared with other threads only for `curl_multi_wakeup`, which libcurl documents as safe
    /// to call from any thread. Every other use happens on the loop thread.
    private struct MultiHandle: @unchecked Sendable {
        let pointer: UnsafeMutableRawPointer
    }

    private let multi: MultiHandle
    /// Commands for the loop thread, queued by any thread.
    final class Mailbox: Sendable {
        private let pending = Locked<[Command]>([])
        /// Commands posted and not yet taken; read without the lock while the loop spins.
        private let count = Atomic<Int>(0)
        func post(_ command: Command) {
            pending.withLock { $0.append(command) }
            count.add(1, ordering: .releasing)
        }
        func takeAll() -> [Command] {
            let taken = pending.withLock { pending in
                defer { pending.removeAll(keepingCapacity: true) }
                return pending
            }
            count.subtract(taken.count, ordering: .relaxed)
            return taken
        }
        var isEmpty: Bool { count.load(ordering: .acquiring) == 0 }
    }

    private let mailbox = Mailbox()
    private let nextID = Atomic<UInt64>(1)
    private let stopped = Locked(false)
    /// The loop thread, joined on shutdown so that it has ended (its TLS state freed) when ``shutdown()`` returns.
    private let thread = Locked<JoinableThread?>(nil)
    /// The loop thread's `pthread_self()`, 0 until it runs.
    private let loopThread = Atomic<UInt>(0)

    init(configuration: CurlTransport.Configuration) {
        CurlGlobal.initialize()
        guard let pointer = curl_multi_init() else {
            fatalError("curl_multi_init failed: libcurl is out of memory")
        }
        multi = MultiHandle(pointer: pointer)
        if let limit = configuration.maximumConnectionsPerHost {
            _ = tdk_multi_setopt_long(pointer, CURLMOPT_MAX_HOST_CONNECTIONS, limit)
        }
        _ = tdk_multi_setopt_long(pointer, CURLMOPT_MAXCONNECTS, configuration.connectionCacheSize)
        let mailbox = self.mailbox
        let multi = self.multi
        // The thread holds the loop strongly until it exits, so the executor it runs jobs for stays valid.
        let started = JoinableThread(name: "tapedeck.curl") { [self] in
            self.loopThread.store(Self.currentThreadID(), ordering: .releasing)
            var loop = LoopState(multi: multi.pointer, configuration: configuration, executor: asUnownedTaskExecutor())
            loop.run(mailbox: mailbox) { id in
                // A paused transfer can go on (see `Command.resume`).
                mailbox.post(.resume(id: id))
                curl_multi_wakeup(multi.pointer)
            }
            curl_multi_cleanup(multi.pointer)
        }
        thread.withLock { $0 = started }
    }

    /// A fresh transfer identifier.
    func makeID() -> UInt64 { nextID.add(1, ordering: .relaxed).oldValue }

    /// Queues a command and wakes the loop. Returns `false` when the loop has stopped and refused it.
    @discardableResult
    func send(_ command: Command) -> Bool {
        let accepted = stopped.withLock { stopped -> Bool in
            guard !stopped else { return false }
            mailbox.post(command)
            if case .shutdown = command { stopped = true }
            return true
        }
        if accepted {
            // The loop takes its mailbox before it sleeps, so a command posted by code running on the loop thread
            // (a job of a task that prefers this executor) needs no wake-up.
            if !isLoopThread { curl_multi_wakeup(multi.pointer) }
        } else if case .start(_, let request, let sink) = command {
            sink.finish(throwing: URLError(.cancelled, failingURL: request.url, reason: "the transport was shut down"))
        }
        return accepted
    }

    /// Whether the caller is the loop thread.
    var isLoopThread: Bool {
        loopThread.load(ordering: .acquiring) == Self.currentThreadID()
    }

    private static func currentThreadID() -> UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #else
        pthread_self()
        #endif
    }

    /// Stops the loop: running transfers fail with `URLError.cancelled`; waits for the thread to end, unless the
    /// caller is that thread (a job running on the loop), which ends once the job returns. Called again, it returns
    /// at once.
    func shutdown() {
        send(.shutdown)
        thread.withLock { $0 }?.join()
    }
}

/// What the loop thread owns. Not `Sendable`: it never leaves that thread.
private struct LoopState {
    let multi: UnsafeMutableRawPointer
    let configuration: CurlTransport.Configuration
    /// The loop as a task executor, for the jobs it runs.
    let executor: UnownedTaskExecutor
    var transfers: [UInt64: CurlTransfer] = [:]
    /// Peer chains by endpoint, for responses on reused connections (libcurl reports certificates per handshake).
    var certificateCache: [String: [Data]] = [:]
    /// Transfers cancelled before they started (only finished ones' ids can be cancelled late, and those are
    /// never started, so the set stays tiny).
    var cancelledBeforeStart: Set<UInt64> = []

    init(multi: UnsafeMutableRawPointer, configuration: CurlTransport.Configuration, executor: UnownedTaskExecutor) {
        self.multi = multi
        self.configuration = configuration
        self.executor = executor
    }

    mutating func run(mailbox: CurlEventLoop.Mailbox, wake: @escaping @Sendable (UInt64) -> Void) {
        while true {
            // Jobs run here post commands (and further jobs) without waking the loop: take those too, a bounded
            // number of rounds, so a task that keeps yielding on this executor cannot starve the transfers.
            for _ in 0..<Self.mailboxRounds {
                let commands = mailbox.takeAll()
                if commands.isEmpty { break }
                for command in commands {
                    guard handle(command, wake: wake) else {
                        cancelAll()
                        return
                    }
                }
            }
            var running: Int32 = 0
            curl_multi_perform(multi, &running)
            // Completions resume their callers; a caller that prefers this executor is queued here, unannounced.
            let finished = collectFinished()
            let now = MonotonicClock.nanoseconds()
            stopIdleTransfers(at: now)
            if !mailbox.isEmpty { continue }
            if finished, Self.awaitNextCommand(in: mailbox, from: now) { continue }
            curl_multi_poll(multi, nil, 0, pollTimeoutMilliseconds(at: now), nil)
        }
    }

    typealias Command = CurlEventLoop.Command

    /// Returns `false` on shutdown.
    private mutating func handle(_ command: Command, wake: @escaping @Sendable (UInt64) -> Void) -> Bool {
        switch command {
        case .start(let id, let request, let sink):
            start(id: id, request: request, sink: sink, wake: wake)
        case .cancel(let id):
            if let transfer = transfers[id] {
                remove(transfer)
                transfer.sink.finish(throwing: URLError(.cancelled, failingURL: transfer.request.url, reason: "cancelled"))
            } else {
                // A `send` cancelled before its start command arrived: refuse the start when it comes.
                cancelledBeforeStart.insert(id)
            }
        case .resume(let id):
            transfers[id]?.resume()
        case .run(let job):
            job.runSynchronously(on: executor)
        case .shutdown:
            return false
        }
        return true
    }

    private mutating func start(
        id: UInt64, request: HTTPRequest, sink: TransferSink,
        wake: @escaping @Sendable (UInt64) -> Void
    ) {
        if cancelledBeforeStart.remove(id) != nil {
            sink.finish(throwing: URLError(.cancelled, failingURL: request.url, reason: "cancelled"))
            return
        }
        if let problem = CurlTransport.preflightError(for: request) {
            sink.finish(throwing: problem)
            return
        }
        do {
            let transfer = try CurlTransfer(
                id: id, request: request, configuration: configuration, sink: sink,
                wake: { wake(id) })
            let code = curl_multi_add_handle(multi, transfer.easy.handle)
            guard code == CURLM_OK else {
                throw URLError(.unknown, failingURL: request.url,
                               reason: "libcurl could not start the transfer: \(String(cString: curl_multi_strerror(code)))")
            }
            transfers[id] = transfer
        } catch let error as URLError {
            sink.finish(throwing: error)
        } catch {
            sink.finish(throwing: URLError(.unknown, failingURL: request.url, reason: "\(error)"))
        }
    }

    /// Most mailbox passes per loop turn before libcurl gets to move bytes again.
    static let mailboxRounds = 8

    /// How long the loop keeps checking for a new command after a transfer finished, before it sleeps in
    /// `curl_multi_poll`. A client that sends its next request as soon as the last one completes (the common
    /// sequential case) is then picked up without a thread wake-up, which costs more than the spin.
    static let commandSpinNanoseconds: UInt64 = 50_000

    /// Spins briefly for a command; `true` when one arrived.
    private static func awaitNextCommand(in mailbox: CurlEventLoop.Mailbox, from start: UInt64) -> Bool {
        while mailbox.isEmpty {
            if MonotonicClock.nanoseconds() - start >= commandSpinNanoseconds { return false }
            sched_yield()
        }
        return true
    }

    /// Delivers the results of finished transfers; `true` when there was at least one.
    private mutating func collectFinished() -> Bool {
        var finished = false
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            let result = message.pointee.data.result
            var privatePointer: UnsafeMutableRawPointer?
            _ = tdk_easy_getinfo_pointer(easy, CURLINFO_PRIVATE, &privatePointer)
            guard let privatePointer else { continue }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(privatePointer).takeUnretainedValue()
            remove(transfer)
            transfer.complete(with: result, certificateCache: &certificateCache)
            finished = true
        }
        return finished
    }

    private mutating func stopIdleTransfers(at now: UInt64) {
        for transfer in transfers.values where transfer.isIdle(at: now) && !transfer.isPaused {
            transfer.stopForIdling()
            remove(transfer)
            transfer.complete(with: CURLE_OPERATION_TIMEDOUT, certificateCache: &certificateCache)
        }
    }

    private func pollTimeoutMilliseconds(at now: UInt64) -> Int32 {
        var milliseconds: UInt64 = 1000
        for transfer in transfers.values where !transfer.isPaused {
            milliseconds = min(milliseconds, transfer.nanosecondsUntilIdle(at: now) / 1_000_000 + 1)
        }
        return Int32(milliseconds)
    }

    private mutating func remove(_ transfer: CurlTransfer) {
        curl_multi_remove_handle(multi, transfer.easy.handle)
        transfer.releaseBody()
        transfers[transfer.id] = nil
    }

    private mutating func cancelAll() {
        for transfer in transfers.values {
            remove(transfer)
            transfer.sink.finish(throwing: URLError(.cancelled, failingURL: transfer.request.url, reason: "the transport was shut down"))
        }
    }
}

/// `curl_global_init`, exactly once per process.
enum CurlGlobal {
    private static let initialized: Bool = {
        curl_global_init(tdk_global_default()) == CURLE_OK
    }()

    static func initialize() { _ = initialized }
}
