import Foundation
import TapedeckCore

/// Pulls an ``HTTPBodyStream`` on the cooperative pool into a small buffer that libcurl's read callback drains
/// on the event-loop thread. The pump waits while the buffer is full, so memory stays bounded whatever the
/// body's size; the reader pauses the transfer while the buffer is empty and is woken through `onReadable`.
final class StreamBodyPump: Sendable {
    /// Bytes buffered before the pump waits for the reader.
    static let highWaterMark = 256 * 1024

    private struct State {
        var chunks: [Data] = []
        var headOffset = 0
        var buffered = 0
        var finished = false
        var failure: (any Error)?
        var readerWaiting = false
        var pumpWaiting: CheckedContinuation<Void, Never>?
        var cancelled = false
    }

    private let state = Locked(State())
    private let onReadable: @Sendable () -> Void
    private let task = Locked<Task<Void, Never>?>(nil)

    init(stream: HTTPBodyStream, onReadable: @escaping @Sendable () -> Void) {
        self.onReadable = onReadable
        let pumpTask = Task { [weak self] in
            do {
                for try await chunk in stream.makeChunks() {
                    guard let self else { return }
                    if await !self.append(chunk) { return }
                }
                self?.finish(failure: nil)
            } catch {
                self?.finish(failure: error)
            }
        }
        task.withLock { $0 = pumpTask }
    }

    /// Appends a chunk, waiting first while the buffer is full. Returns `false` once cancelled.
    private func append(_ chunk: Data) async -> Bool {
        await state.wait { state, continuation in
            guard !state.cancelled, state.buffered >= Self.highWaterMark else { return () }
            state.pumpWaiting = continuation
            return nil
        }
        let wakeReader = state.withLock { state -> Bool? in
            guard !state.cancelled else { return nil }
            if !chunk.isEmpty {
                state.chunks.append(chunk)
                state.buffered += chunk.count
            }
            defer { state.readerWaiting = false }
            return state.readerWaiting
        }
        guard let wakeReader else { return false }
        if wakeReader { onReadable() }
        return true
    }

    private func finish(failure: (any Error)?) {
        let wakeReader = state.withLock { state -> Bool in
            state.finished = true
            state.failure = failure
            defer { state.readerWaiting = false }
            return state.readerWaiting
        }
        if wakeReader { onReadable() }
    }

    /// Copies buffered bytes into `buffer`, or reports that the reader must wait.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> RequestBodyReader.ReadResult {
        var resumePump: CheckedContinuation<Void, Never>?
        let result = state.withLock { state -> RequestBodyReader.ReadResult in
            if state.buffered == 0 {
                if let failure = state.failure { return .failed(failure) }
                if state.finished { return .bytes(0) }
                state.readerWaiting = true
                return .wouldBlock
            }
            var copied = 0
            while copied < buffer.count, let head = state.chunks.first {
                let count = min(buffer.count - copied, head.count - state.headOffset)
                head.withUnsafeBytes { bytes in
                    (buffer.baseAddress! + copied).copyMemory(from: bytes.baseAddress! + state.headOffset, byteCount: count)
                }
                copied += count
                state.headOffset += count
                if state.headOffset == head.count {
                    state.chunks.removeFirst()
                    state.headOffset = 0
                }
            }
            state.buffered -= copied
            if state.buffered < Self.highWaterMark {
                resumePump = state.pumpWaiting
                state.pumpWaiting = nil
            }
            return .bytes(copied)
        }
        resumePump?.resume()
        return result
    }

    /// Stops pulling from the stream.
    func cancel() {
        let waiting = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.cancelled = true
            state.chunks.removeAll()
            state.buffered = 0
            defer { state.pumpWaiting = nil }
            return state.pumpWaiting
        }
        waiting?.resume()
        task.withLock { $0?.cancel() }
    }
}
