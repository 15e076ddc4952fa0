import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TapedeckCore

/// Collects a body as it streams past (a request body being uploaded, a response body being downloaded) without
/// holding a large one in memory: up to the sidecar threshold in memory (an inline body, redacted later with the rest
/// of the interaction); past it, handed to a ``SpillWriter``, which redacts it with a ``BodyRedactionStream`` and
/// writes it to a temporary file in the cassette's sidecar folder while it is still arriving. ``finish()`` renames
/// that file to a name derived from the content (``ContentHash``), so an unchanged body keeps its sidecar name when
/// re-recorded. No byte reaches disk unredacted, and no body is held whole or read back.
final class BodyCapture: Sendable {
    private struct State {
        var memory = Data()
        var spill: SpillWriter?
        var failure: String?
    }

    private let state = Locked(State())
    private let cassette: URL
    private let threshold: Int
    private let makeStream: @Sendable () -> BodyRedactionStream

    /// The largest sidecar body redacted whole in memory when a secret learned later is scrubbed from it
    /// (``CassetteSession/scrubSidecars()``); a larger one is scrubbed as it streams from one file to another.
    static let redactableLimit = 64 << 20

    /// A capture for a body of `cassette`; `stream` makes the redaction of a body bound for a sidecar file, when one
    /// arrives (it is asked once, when the body passes `threshold`).
    init(cassette: URL, threshold: Int, stream: @escaping @Sendable () -> BodyRedactionStream) {
        self.cassette = cassette
        self.threshold = threshold
        self.makeStream = stream
    }

    /// Starts over (the transport asked for the body again).
    func reset() {
        let spill = state.withLock { state in
            defer { state = State() }
            return state.spill
        }
        spill?.discard()
    }

    /// Takes the next piece of the body. Past the threshold it goes to the spill writer, which may make the caller
    /// wait while it is far behind.
    func append(_ chunk: Data) {
        guard !chunk.isEmpty else { return }
        let spill = state.withLock { state -> (SpillWriter, Data)? in
            guard state.failure == nil else { return nil }
            if let spill = state.spill { return (spill, chunk) }
            guard state.memory.count + chunk.count > threshold else {
                state.memory.append(chunk)
                return nil
            }
            do {
                let folder = cassette.deletingLastPathComponent().appendingPathComponent(CassetteFile.sidecarFolder(cassette))
                let spill = try SpillWriter(folder: folder, stream: makeStream())
                state.spill = spill
                defer { state.memory = Data() }
                return (spill, state.memory + chunk)
            } catch {
                state.failure = "\(error)"
                return nil
            }
        }
        // Outside the lock: the writer may make this thread wait for its backlog.
        if let (writer, bytes) = spill { writer.write(bytes) }
    }

    /// The captured body: inline up to the threshold (redacted later with the rest of the interaction), else the
    /// sidecar file its spill writer redacted as it arrived.
    func finish() throws(CassetteError) -> CassetteBody {
        let snapshot = state.withLock { state -> State in
            defer { state = State() }
            return state
        }
        if let failure = snapshot.failure {
            snapshot.spill?.discard()
            throw CassetteError.io(file: cassette.path, operation: "capture a body for", reason: failure)
        }
        guard let spill = snapshot.spill else { return CassetteBody(snapshot.memory) }
        let written = spill.finish()
        if let failure = written.failure {
            unlink(written.url.path)
            throw CassetteError.io(file: cassette.path, operation: "capture a body for", reason: failure)
        }
        if !written.giveUps.isEmpty {
            unlink(written.url.path)
            try Redaction.refuse(written.giveUps, file: cassette.path, place: "a body of over \(written.count) bytes streamed to a sidecar file")
        }
        let name = CassetteFile.sidecarFolder(cassette) + "/" + written.hash.hexDigest + ".bin"
        do { try AtomicFile.move(written.url, to: CassetteFile.sidecarURL(name, cassette: cassette)) } catch { throw CassetteError(error) }
        return CassetteBody(sidecar: name, byteCount: written.count)
    }

    /// A body already whole in memory, with no capture: inline up to the threshold (redacted later with the rest of
    /// the interaction), else redacted by `redacting` and written to its sidecar file.
    func store(_ data: Data, redacting: (Data) -> Data = { $0 }) throws(CassetteError) -> CassetteBody {
        guard data.count > threshold else { return CassetteBody(data) }
        let redacted = try Redaction.refusingGiveUps(file: cassette.path, place: "a \(data.count)-byte body bound for a sidecar file") {
            redacting(data)
        }
        let name = CassetteFile.sidecarFolder(cassette) + "/" + ContentHash.of(redacted) + ".bin"
        do { try AtomicFile.write(redacted, to: CassetteFile.sidecarURL(name, cassette: cassette)) } catch { throw CassetteError(error) }
        return CassetteBody(sidecar: name, byteCount: Int64(redacted.count))
    }

    /// Captures a whole file, chunk by chunk; `offset` skips a prefix (a resumed download's existing part).
    func appendFile(_ url: URL, offset: Int64 = 0) throws(CassetteError) {
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            try handle.seek(toOffset: UInt64(offset))
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { append(chunk) }
        } catch {
            throw CassetteError.io(file: url.path, operation: "read for recording", reason: "\(error)")
        }
    }
}
