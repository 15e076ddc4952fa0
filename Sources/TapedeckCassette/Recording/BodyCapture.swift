import Foundation
#if canImport(Glibc)
import Glibc
import TapedeckCore
#endif

/// Collects a body as it streams past (a request body being uploaded, a response body being downloaded) without
/// holding a large one in memory: up to the sidecar threshold in memory, beyond it in a temporary file in the
/// cassette's sidecar folder, which ``finish()`` renames to a name derived from the content (``ContentHash``), so
/// an unchanged body keeps its sidecar name when re-recorded.
final class BodyCapture: Sendable {
    private struct State {
        var memory = Data()
        var spill: FileHandle?
        var spillURL: URL?
        var count: Int64 = 0
        var hash = ContentHash()
        var failure: String?
    }

    private let state = Locked(State())
    private let cassette: URL
    private let threshold: Int

    /// Bodies up to this size stay in memory until ``finish(redacting:)``, so one bound for a sidecar file is redacted
    /// before it is written; larger ones are spilled to a temporary file as they arrive and stored as captured.
    static let redactableLimit = 64 << 20
    private var memoryLimit: Int { max(threshold, Self.redactableLimit) }

    init(cassette: URL, threshold: Int) {
        self.cassette = cassette
        self.threshold = threshold
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
            state.hash.update(chunk)
            state.count += Int64(chunk.count)
            if state.spill == nil, state.memory.count + chunk.count <= memoryLimit {
                state.memory.append(chunk)
                return
            }
            do {
                if state.spill == nil {
                    let folder = cassette.deletingLastPathComponent().appendingPathComponent(CassetteFile.sidecarFolder(cassette))
                    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                    let url = folder.appendingPathComponent(".capture-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).tmp")
                    guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                        throw CassetteError.io(file: url.path, operation: "create", reason: "cannot create the file")
                    }
                    state.spill = try FileHandle(forWritingTo: url)
                    state.spillURL = url
                    try state.spill?.write(contentsOf: state.memory)
                    state.memory = Data()
                }
                try state.spill?.write(contentsOf: chunk)
            } catch {
                state.failure = "\(error)"
            }
        }
    }

    /// The captured body: inline up to the threshold (redacted later with the rest of the interaction), else a
    /// sidecar file. A sidecar body still in memory goes through `redacting` before anything is written.
    func finish(redacting: (Data) -> Data = { $0 }) throws(CassetteError) -> CassetteBody {
        let snapshot = state.withLock { state -> State in
            defer { state = State() }
            return state
        }
        if let failure = snapshot.failure {
            if let url = snapshot.spillURL { unlink(url.path) }
            throw CassetteError.io(file: cassette.path, operation: "capture a body for", reason: failure)
        }
        guard let spill = snapshot.spill, let spillURL = snapshot.spillURL else {
            return try store(snapshot.memory, redacting: redacting)
        }
        try? spill.close()
        let name = CassetteFile.sidecarFolder(cassette) + "/" + snapshot.hash.hexDigest + ".bin"
        try AtomicFile.move(spillURL, to: CassetteFile.sidecarURL(name, cassette: cassette))
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
        try AtomicFile.write(redacted, to: CassetteFile.sidecarURL(name, cassette: cassette))
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
