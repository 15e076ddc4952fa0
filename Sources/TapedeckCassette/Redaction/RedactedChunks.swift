import Foundation
import TapedeckCore

extension TimedChunk {
    /// `chunks` re-cut to cover a body of `total` bytes after an edit (redaction) changed its length, keeping each
    /// chunk's time: a chunk boundary in the `unchangedPrefix` bytes stays where it is, one in the `unchangedSuffix`
    /// bytes moves by the change in length, and one inside the edited span between them moves in proportion within
    /// the span. So an edit confined to one chunk (a secret in one server-sent event) changes that chunk's size alone,
    /// and every other chunk keeps its bytes and its time; with no unchanged ends known, every boundary scales by the
    /// same factor. Sizes stay positive (a chunk the edit emptied is dropped, as the format wants at least one byte)
    /// and times stay as they were, so never go back.
    ///
    /// ```swift
    /// // 10 + 10 + 10 bytes; a 4-byte secret in the second chunk became a 14-byte stand-in
    /// TimedChunk.recut(chunks, to: 40, unchangedPrefix: 12, unchangedSuffix: 14)   // 10 + 20 + 10, same times
    /// ```
    static func recut(_ chunks: [TimedChunk], to total: Int, unchangedPrefix: Int = 0, unchangedSuffix: Int = 0) -> [TimedChunk] {
        let old = chunks.reduce(0) { $0 + max(0, $1.byteCount) }
        guard old > 0, total > 0 else { return fitted(chunks, to: total) }
        let prefix = max(0, min(unchangedPrefix, old, total))
        let suffix = max(0, min(unchangedSuffix, old - prefix, total - prefix))
        let oldSpan = old - prefix - suffix
        let scale = oldSpan > 0 ? Double(total - prefix - suffix) / Double(oldSpan) : 0
        func moved(_ end: Int) -> Int {
            if end <= prefix { return end }
            if end >= old - suffix { return end - old + total }
            return prefix + Int((Double(end - prefix) * scale).rounded())
        }
        var recut: [TimedChunk] = []
        recut.reserveCapacity(chunks.count)
        var end = 0, start = 0
        for chunk in chunks {
            end += max(0, chunk.byteCount)
            let next = min(total, max(start, moved(end)))
            if next > start { recut.append(TimedChunk(byteCount: next - start, at: chunk.at)) }
            start = next
        }
        return start == total ? recut : fitted(recut, to: total)
    }

    /// How many bytes at the start and at the end of `before` and `after` are the same (not overlapping): where an
    /// edit that turned one into the other left the bytes alone.
    static func unchangedEnds(_ before: Data, _ after: Data) -> (prefix: Int, suffix: Int) {
        before.withUnsafeBytes { (old: UnsafeRawBufferPointer) in
            after.withUnsafeBytes { (new: UnsafeRawBufferPointer) in
                let limit = min(old.count, new.count)
                var prefix = 0
                while prefix < limit, old[prefix] == new[prefix] { prefix += 1 }
                var suffix = 0
                while suffix < limit - prefix, old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
                return (prefix, suffix)
            }
        }
    }
}

extension Interaction.Response {
    /// Makes ``chunks`` describe ``body`` again after redaction rewrote it from `old`: when the sizes no longer add
    /// up, they are re-cut by ``TimedChunk/recut(_:to:unchangedPrefix:unchangedSuffix:)``, around the bytes the two
    /// bodies share at either end when both are in memory, in proportion otherwise (a sidecar rewritten as it
    /// streams). A body whose length did not change keeps its chunks.
    mutating func recutChunks(after old: CassetteBody) {
        guard let chunks, !chunks.isEmpty else { return }
        let total = Int(body.byteCount)
        let sum = chunks.reduce(0) { $0 + $1.byteCount }
        guard sum != total else { return }
        var ends = (prefix: 0, suffix: 0)
        if Int64(sum) == old.byteCount, let before = old.inlineData, let after = body.inlineData {
            ends = TimedChunk.unchangedEnds(before, after)
        }
        self.chunks = TimedChunk.recut(chunks, to: total, unchangedPrefix: ends.prefix, unchangedSuffix: ends.suffix)
    }
}
