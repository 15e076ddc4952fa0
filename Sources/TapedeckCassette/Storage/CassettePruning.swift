import Foundation

/// Dropping interactions from a cassette file: what ``CassetteConfiguration/pruneUnplayed`` does when a run
/// finishes, and what `tapedeck prune` does with a run report (``RunReport``) of a suite that shares a cassette.
public enum CassettePruning {
    /// `cassette` without the interactions not in `kept`, the dropped ones as `#index METHOD URL`, and the sidecar
    /// paths only the dropped ones used (a body shared with a kept interaction stays). Pure.
    static func split(_ cassette: Cassette, keeping kept: Set<Int>) -> (kept: Cassette, dropped: [String], orphanedSidecars: Set<String>) {
        var result = Cassette()
        var dropped: [String] = []
        var keptSidecars = Set<String>()
        var droppedSidecars = Set<String>()
        for (index, interaction) in cassette.interactions.enumerated() {
            let sidecars = [interaction.request.body.sidecarPath, interaction.response?.body.sidecarPath].compactMap { $0 }
            if kept.contains(index) {
                result.interactions.append(interaction)
                keptSidecars.formUnion(sidecars)
            } else {
                dropped.append("#\(index) " + interaction.request.summary)
                droppedSidecars.formUnion(sidecars)
            }
        }
        return (result, dropped, droppedSidecars.subtracting(keptSidecars))
    }

    /// Removes sidecar files of the cassette at `url` (best effort: a file already gone is fine).
    static func removeSidecars(_ paths: Set<String>, cassette url: URL) {
        for path in paths { try? FileManager.default.removeItem(at: CassetteFile.sidecarURL(path, cassette: url)) }
    }

    /// Rewrites the cassette at `url` keeping only the interactions at `kept` (atomically, holding the cassette's
    /// recording lock so no recorder writes meanwhile) and removes the sidecars only the dropped ones used.
    /// Returns what was dropped, as `#index METHOD URL`; nothing is written when nothing is dropped.
    ///
    /// ```swift
    /// let dropped = try CassettePruning.prune(cassetteURL, keeping: [0, 2, 5])
    /// ```
    /// - Throws: ``CassetteError`` when the file cannot be read, is being recorded, or cannot be written.
    public static func prune(_ url: URL, keeping kept: Set<Int>, dryRun: Bool = false) throws(CassetteError) -> [String] {
        try prune(url, dryRun: dryRun) { _ throws(CassetteError) in kept }
    }

    /// ``prune(_:keeping:dryRun:)`` keeping the positions `keeping` picks from the cassette as it is read under the
    /// lock (a run report checks its size against it), so the file is read once.
    public static func prune(
        _ url: URL, dryRun: Bool = false, keeping: (Cassette) throws(CassetteError) -> Set<Int>
    ) throws(CassetteError) -> [String] {
        let lock = try FileLock(cassette: url)
        defer { withExtendedLifetime(lock) {} }
        let cassette = try CassetteFile.load(url)
        let (pruned, dropped, orphans) = split(cassette, keeping: try keeping(cassette))
        guard !dropped.isEmpty, !dryRun else { return dropped }
        try CassetteFile.save(pruned, to: url)
        removeSidecars(orphans, cassette: url)
        return dropped
    }
}
