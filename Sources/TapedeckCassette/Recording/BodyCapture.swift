import Foundation
#if canImport(Glibc)
import Glibc
import TapedeckCore
#endif

/// Collects a body as it streams past (a request body being uploaded, a response body being downloaded) without
/// holding a large one in memory: up to ``redactableLimit`` (or the sidecar threshold, when larger) in memory, beyond
/// it redacted by a ``BodyRedactionStream`` as it arrives and written to a temporary file in the cassette's sidecar
/// folder, which ``finish(redacting:)`` renames to a name derived from the content (``ContentHash``), so an unchanged
/// body keeps its sidecar name when re-recorded. No byte reaches disk unredacted.
final class BodyCapture: Sendable {
    private struct State {
        var memory = Data()
        var spill: FileHandle?
        var spillURL: URL?
        /// Redacts what is spilled, from the first spilled byte on.
        var stream: BodyRedactionStream?
        /// The bytes written to the spill file, and their hash.
        var count: Int64 = 0
        var hash = ContentHash()
        var failure: String?
        /// Where the stream's regular-expression filters gave up: the body is not stored.
        var giveUps: [String] = []
    }

    private let state = Locked(State())
    private let cassette: URL
    private let threshold: Int
    private let makeStream: @Sendable () -> BodyRedactionStream

    /// Bodies up to this size (or the sidecar threshold, when larger) stay in memory until ``finish(redacting:)``, so
    /// one bound for a sidecar file is redacted whole before it is written; larger ones are redacted by a
    /// ``BodyRedactionStream`` as they arrive, and only its output is written.
    static let redactableLimit = 64 << 20
    /// The most a body holds in memory before it is spilled.
    private let memoryLimit: Int

    /// A capture for a body of `cassette`; `stream` makes the redaction of a body too large to hold in memory, when
    /// one arrives (it is asked once, when the body passes `redactableLimit`, or the threshold when that is larger).
    init(cassette: URL, threshold: Int, redactableLimit: Int = BodyCapture.redactableLimit, stream: @escaping @Sendable () -> BodyRedactionStream) {
        self.cassette = cassette
        self.threshold = threshold
        self.memoryLimit = max(threshold, redactableLimit)
        self.makeStream = stream
    }

    /// Starts over (the transport asked for the body again).
    func reset() {
        state.withLock { state in
            try? state.spill?.close()
            if let url = state.spillURL { unlink(url.path) }
            state = State()
        }
    }

    func append(_ chunk: Data) {
        guard !chunk.isEmpty else { return }
        state.withLock { state in
            guard state.failure == nil else { return }
            if state.spill == nil, state.memory.count + chunk.count <= memoryLimit {
                state.memory.append(chunk)
                return
            }
            do {
                if state.spill == nil {
                    try startSpilling(&state)
                    let held = state.memory
                    state.memory = Data()
                    try spill(held, into: &state)
                }
                try spill(chunk, into: &state)
            } catch {
                state.failure = "\(error)"
            }
        }
    }

    private func startSpilling(_ state: inout State) throws {
        let folder = cassette.deletingLastPathComponent().appendingPathComponent(CassetteFile.sidecarFolder(cassette))
        let (url, handle) = try AtomicFile.temporary(in: folder, purpose: "capture")
        state.spill = handle
        state.spillURL = url
        state.stream = makeStream()
    }

    /// Redacts `bytes` (`nil`: the end of the body) and writes what the stream gives back.
    private func spill(_ bytes: Data?, into state: inout State) throws {
        // Taken out while it works, so that its storage is not copied on write.
        guard var stream = state.stream else { return }
        state.stream = nil
        let (redacted, giveUps) = RedactionGiveUps.collecting { bytes.map { stream.feed($0) } ?? stream.finish() }
        state.stream = stream
        state.giveUps += giveUps.filter { !state.giveUps.contains($0) }
        guard !redacted.isEmpty else { return }
        state.hash.update(redacted)
        state.count += Int64(redacted.count)
        try state.spill?.write(contentsOf: redacted)
    }

    /// The captured body: inline up to the threshold (redacted later with the rest of the interaction), else a
    /// sidecar file. A sidecar body still in memory goes through `redacting` before anything is written; a spilled
    /// one was redacted as it arrived.
    func finish(redacting: (Data) -> Data = { $0 }) throws(CassetteError) -> CassetteBody {
        let snapshot = state.withLock { state -> State in
            defer { state = State() }
            if state.spill != nil, state.failure == nil {
                do { try spill(nil, into: &state) } catch { state.failure = "\(error)" }
            }
            return state
        }
        try? snapshot.spill?.close()
        if let failure = snapshot.failure {
            if let url = snapshot.spillURL { unlink(url.path) }
            throw CassetteError.io(file: cassette.path, operation: "capture a body for", reason: failure)
        }
        guard let spillURL = snapshot.spillURL else { return try store(snapshot.memory, redacting: redacting) }
        if !snapshot.giveUps.isEmpty {
            unlink(spillURL.path)
            try Redaction.refuse(snapshot.giveUps, file: cassette.path, place: "a body of over \(snapshot.count) bytes streamed to a sidecar file")
        }
        let name = CassetteFile.sidecarFolder(cassette) + "/" + snapshot.hash.hexDigest + ".bin"
        do { try AtomicFile.move(spillURL, to: CassetteFile.sidecarURL(name, cassette: cassette)) } catch { throw CassetteError(error) }
        return CassetteBody(sidecar: name, byteCount: snapshot.count)
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
