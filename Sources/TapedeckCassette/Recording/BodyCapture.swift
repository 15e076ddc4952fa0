import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Collects a body as it streams past (a request body being uploaded, a response body being downloaded) without
/// holding a large one in memory: up to the sidecar threshold in memory, beyond it in a temporary file in the
/// cassette's sidecar folder, which ``finish()`` renames to a name derived from the content (FNV-1a 64), so an
/// unchanged body keeps its sidecar name when re-recorded.
final class BodyCapture: Sendable {
    private struct State {
        var memory = Data()
        var spill: FileHandle?
        var spillURL: URL?
        var count: Int64 = 0
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var failure: String?
    }

    private let state = Mutex(State())
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
            state.hash = Self.fnv1a(chunk, seed: state.hash)
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
            guard snapshot.memory.count > threshold else { return CassetteBody(snapshot.memory) }
            let data = redacting(snapshot.memory)
            let name = CassetteFile.sidecarFolder(cassette) + "/" + String(format: "%016llx", Self.fnv1a(data, seed: 0xcbf2_9ce4_8422_2325)) + ".bin"
            try AtomicFile.write(data, to: CassetteFile.sidecarURL(name, cassette: cassette))
            return CassetteBody(sidecar: name, byteCount: Int64(data.count))
        }
        try? spill.close()
        let name = CassetteFile.sidecarFolder(cassette) + "/" + String(format: "%016llx", snapshot.hash) + ".bin"
        try AtomicFile.move(spillURL, to: CassetteFile.sidecarURL(name, cassette: cassette))
        return CassetteBody(sidecar: name, byteCount: snapshot.count)
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

    static func fnv1a(_ data: Data, seed: UInt64) -> UInt64 {
        data.withUnsafeBytes { raw in
            var hash = seed
            for byte in raw {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01B3
            }
            return hash
        }
    }
}
