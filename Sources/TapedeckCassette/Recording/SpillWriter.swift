import Foundation
import TapedeckCore

/// Redacts a body bound for a sidecar file and writes it to a temporary file in the sidecar folder, on a queue of its
/// own: the thread that receives the body hands each chunk over and goes on, so redacting and writing a large body
/// overlaps its transfer instead of following it. The thread waits only while more than ``backlogLimit`` bytes are
/// still to be written, which bounds the memory a body takes however large it is.
///
/// Only redacted bytes reach the file. ``finish()`` waits for the last chunk and says where the body is, how long it
/// is and its ``ContentHash``; ``discard()`` removes the file.
final class SpillWriter: @unchecked Sendable {
    /// What was written: the temporary file, its length and hash, and what went wrong, if anything did.
    struct Outcome {
        var url: URL
        var count: Int64
        var hash: ContentHash
        /// Where the stream's regular-expression filters gave up: the body must not be stored.
        var giveUps: [String]
        var failure: String?
    }

    /// The most bytes handed over and not yet written before ``write(_:)`` waits.
    static let backlogLimit = 8 << 20

    private let queue = DispatchQueue(label: "tapedeck.sidecar-spill")
    private let backlog = NSCondition()
    /// Bytes handed over and not yet written (guarded by `backlog`).
    private var pendingBytes = 0
    /// The rest is touched only on `queue`.
    private var outcome: Outcome
    private var stream: BodyRedactionStream
    private var handle: FileHandle?

    /// Opens a temporary file in `folder` for a body that `stream` redacts.
    init(folder: URL, stream: BodyRedactionStream) throws {
        let (url, handle) = try AtomicFile.temporary(in: folder, purpose: "capture")
        self.handle = handle
        self.stream = stream
        outcome = Outcome(url: url, count: 0, hash: ContentHash(), giveUps: [])
    }

    /// A writer dropped without ``finish()`` or ``discard()`` (its exchange ended another way) leaves no file behind.
    /// Every chunk handed over holds the writer until it is written, so nothing is still being written here.
    deinit {
        if handle != nil {
            closeFile()
            unlink(outcome.url.path)
        }
    }

    /// Hands `chunk` over to be redacted and written; waits first while the backlog is full.
    func write(_ chunk: Data) {
        guard !chunk.isEmpty else { return }
        backlog.lock()
        while pendingBytes > 0, pendingBytes + chunk.count > Self.backlogLimit { backlog.wait() }
        pendingBytes += chunk.count
        backlog.unlock()
        queue.async { [self] in
            redactAndWrite(chunk)
            backlog.lock()
            pendingBytes -= chunk.count
            backlog.broadcast()
            backlog.unlock()
        }
    }

    /// Writes the rest of the body once every chunk before it is written, closes the file, and says what it holds.
    func finish() -> Outcome {
        queue.sync {
            redactAndWrite(nil)
            closeFile()
            return outcome
        }
    }

    /// Stops writing and removes the file.
    func discard() {
        queue.sync {
            closeFile()
            unlink(outcome.url.path)
        }
    }

    /// Redacts `bytes` (`nil`: the end of the body) and writes what the stream gives back.
    private func redactAndWrite(_ bytes: Data?) {
        guard outcome.failure == nil, handle != nil else { return }
        let (redacted, giveUps) = RedactionGiveUps.collecting { bytes.map { stream.feed($0) } ?? stream.finish() }
        outcome.giveUps += giveUps.filter { !outcome.giveUps.contains($0) }
        guard !redacted.isEmpty else { return }
        outcome.hash.update(redacted)
        outcome.count += Int64(redacted.count)
        do { try handle?.write(contentsOf: redacted) } catch { outcome.failure = "\(error)" }
    }

    private func closeFile() {
        try? handle?.close()
        handle = nil
    }
}
