import Foundation
import TapedeckCore
#if canImport(Glibc)
import Glibc
#endif

/// Changing the bytes of sidecar bodies in place, safely: a changed body is written to a new file named by its new
/// content (the old file stays until the cassette that points at the new one is saved), so a run cut short leaves
/// either the old cassette with its old sidecars or the new one with its new sidecars. Used by redaction of a
/// cassette file and by a recording session scrubbing the bodies it wrote.
struct SidecarRewrite {
    /// A sidecar body of one interaction.
    struct Body {
        let index: Int
        let isRequest: Bool
        let path: String
        let contentType: String?
        let contentEncoding: String?
        let byteCount: Int64

        /// `interactions[3].response.body`
        var place: String { "interactions[\(index)].\(isRequest ? "request" : "response").body" }
    }

    let cassette: URL
    /// The sidecar paths replaced so far, to remove once the cassette no longer refers to them.
    private(set) var replaced: [(place: String, from: String, to: String)] = []

    init(cassette: URL) {
        self.cassette = cassette
    }

    /// The sidecar bodies of the interactions at `positions` (all when `nil`), in cassette order.
    static func bodies(of cassette: Cassette, at positions: [Int]? = nil) -> [Body] {
        var bodies: [Body] = []
        for index in positions ?? Array(cassette.interactions.indices) where cassette.interactions.indices.contains(index) {
            let interaction = cassette.interactions[index]
            var parts: [(isRequest: Bool, body: CassetteBody, contentType: String?)] = [
                (true, interaction.request.body, interaction.request.headers["Content-Type"]),
            ]
            if let response = interaction.response { parts.append((false, response.body, response.headers["Content-Type"])) }
            for part in parts {
                guard let path = part.body.sidecarPath else { continue }
                bodies.append(Body(index: index, isRequest: part.isRequest, path: path, contentType: part.contentType,
                                   contentEncoding: part.body.contentEncoding, byteCount: part.body.byteCount))
            }
        }
        return bodies
    }

    /// The bytes of `body`.
    func data(of body: Body) throws(CassetteError) -> Data {
        try CassetteFile.bodyData(CassetteBody(sidecar: body.path, byteCount: body.byteCount), cassette: cassette, place: body.place)
    }

    /// Points `body` at `data` in `interactions` when the bytes differ from what the file holds (`original`),
    /// writing the new file first unless `writing` is false. Returns whether it changed.
    mutating func replace(_ body: Body, original: Data, with data: Data, in interactions: inout [Interaction],
                          writing: Bool = true) throws(CassetteError) -> Bool {
        guard data != original else { return false }
        let name = CassetteFile.sidecarFolder(cassette) + "/" + ContentHash.of(data) + ".bin"
        if writing {
            do { try AtomicFile.write(data, to: CassetteFile.sidecarURL(name, cassette: cassette)) } catch { throw CassetteError(error) }
        }
        point(body, at: name, byteCount: Int64(data.count), in: &interactions, unchangedEnds: TimedChunk.unchangedEnds(original, data))
        return true
    }

    /// Whether the file of `body` holds a copy of one of `secrets` (or may, for a secret too short to index), read a
    /// megabyte at a time: a copy cut between two reads is whole in the second, which starts again that far back.
    func holdsCopy(of secrets: SecretOccurrences, in body: Body) throws(CassetteError) -> Bool {
        let path = CassetteFile.sidecarURL(body.path, cassette: cassette).path
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .io(file: path, operation: "read", reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        let overlap = max(0, secrets.longestSpelling - 1)
        var buffer = [UInt8](repeating: 0, count: (1 << 20) + overlap)
        var kept = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + kept, $0.count - kept) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw .io(file: path, operation: "read", reason: String(cString: strerror(errno))) }
            guard count > 0 else { return false }
            let filled = kept + count
            if buffer.withUnsafeBufferPointer({ secrets.occursAny(in: UnsafeBufferPointer(rebasing: $0[..<filled])) }) { return true }
            kept = min(overlap, filled)
            buffer.withUnsafeMutableBytes { bytes in
                if kept > 0 { memmove(bytes.baseAddress!, bytes.baseAddress! + filled - kept, kept) }
            }
        }
    }

    /// Passes the file of `body` through `stream` chunk by chunk, for a body too large to hold in memory, and points
    /// `body` at the result when its bytes differ. Returns whether it changed.
    mutating func replaceStreaming(_ body: Body, through stream: BodyRedactionStream,
                                   in interactions: inout [Interaction]) throws(CassetteError) -> Bool {
        var stream = stream
        let source = CassetteFile.sidecarURL(body.path, cassette: cassette)
        var temporary: URL?
        var before = ContentHash(), after = ContentHash()
        var written: Int64 = 0
        do {
            let input = try FileHandle(forReadingFrom: source)
            defer { try? input.close() }
            let (url, output) = try AtomicFile.temporary(in: source.deletingLastPathComponent(), purpose: "rescrub")
            temporary = url
            defer { try? output.close() }
            func write(_ bytes: Data) throws {
                after.update(bytes)
                written += Int64(bytes.count)
                try output.write(contentsOf: bytes)
            }
            while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty {
                before.update(chunk)
                try write(stream.feed(chunk))
            }
            try write(stream.finish())
        } catch {
            if let temporary { unlink(temporary.path) }
            if let failure = error as? AtomicFile.Failure { throw CassetteError(failure) }
            throw error as? CassetteError ?? .io(file: source.path, operation: "rewrite", reason: "\(error)")
        }
        guard let temporary else { return false }
        let digest = after.hexDigest
        guard digest != before.hexDigest || written != body.byteCount else {
            unlink(temporary.path)
            return false
        }
        let name = CassetteFile.sidecarFolder(cassette) + "/" + digest + ".bin"
        do { try AtomicFile.move(temporary, to: CassetteFile.sidecarURL(name, cassette: cassette)) } catch { throw CassetteError(error) }
        point(body, at: name, byteCount: written, in: &interactions)
        return true
    }

    /// Points `body` at the sidecar file `name` in `interactions`, and notes the file it replaced. A response's chunks
    /// are re-cut to the new size (around `unchangedEnds`, the bytes the old and new files share at either end, when
    /// known; in proportion otherwise).
    private mutating func point(_ body: Body, at name: String, byteCount: Int64, in interactions: inout [Interaction],
                                unchangedEnds: (prefix: Int, suffix: Int) = (0, 0)) {
        let stored = CassetteBody(sidecar: name, byteCount: byteCount, contentEncoding: body.contentEncoding)
        if body.isRequest {
            interactions[body.index].request.body = stored
        } else if case .response(var response) = interactions[body.index].outcome {
            response.body = stored
            if let chunks = response.chunks, chunks.reduce(0, { $0 + $1.byteCount }) != Int(byteCount) {
                response.chunks = TimedChunk.recut(chunks, to: Int(byteCount), unchangedPrefix: unchangedEnds.prefix,
                                                   unchangedSuffix: unchangedEnds.suffix)
            }
            interactions[body.index].outcome = .response(response)
        }
        replaced.append((body.place, body.path, name))
    }

    /// Removes the replaced files that `interactions` (as saved) no longer refer to.
    func removeReplaced(keepingThoseOf interactions: [Interaction]) {
        let stillUsed = Set(interactions.flatMap { [$0.request.body.sidecarPath, $0.response?.body.sidecarPath].compactMap { $0 } })
        CassettePruning.removeSidecars(Set(replaced.map(\.from)).subtracting(stillUsed), cassette: cassette)
    }
}
