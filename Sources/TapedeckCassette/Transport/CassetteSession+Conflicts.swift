import Foundation
import TapedeckCore

/// A cassette file changed under a recording session (edited, replaced or removed by someone else) is found before
/// the session writes again, and nothing is lost: neither the other's change nor the session's recordings.
extension CassetteSession {
    /// Throws ``CassetteError/changedWhileRecording(file:change:savedTo:count:)`` when the cassette file is no longer
    /// the one this session last read or wrote, after saving what the session holds (with `pending`, the
    /// interaction being committed) where it overwrites nothing: back in place when the file was removed, else in
    /// `<name>.conflict-<pid>-<n>.json` beside it. The journal continued the old file, so it goes; the session
    /// records no more. Called under ``disk``.
    func checkUnchanged(_ disk: inout Disk, pending: Interaction?) throws(CassetteError) {
        let found = FileIdentity.of(url.path)
        guard found != disk.onDisk else { return }
        var held = state.withLock { $0.player.cassette }
        if let pending { held.interactions.append(pending) }
        let savedTo = found == nil ? url : url.deletingLastPathComponent().appendingPathComponent(
            url.deletingPathExtension().lastPathComponent + ".conflict-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max)).json")
        let change = FileIdentity.change(from: disk.onDisk, to: found)
        do {
            try CassetteFile.save(held, to: savedTo)
        } catch {
            // Nothing held could be saved elsewhere: the journal keeps the recordings, so it stays.
            let failure = CassetteError.io(file: savedTo.path, operation: "save the recordings of cassette \(url.path), which \(change), to",
                                           reason: "\(error)")
            state.withLock { $0.conflict = failure }
            throw failure
        }
        disk.journal = nil
        try? FileManager.default.removeItem(atPath: CassetteFile.journalURL(url).path)
        if found == nil { disk.onDisk = FileIdentity.of(url.path) }
        let conflict = CassetteError.changedWhileRecording(file: url.path, change: change, savedTo: savedTo.path, count: held.interactions.count)
        state.withLock { $0.conflict = conflict }
        throw conflict
    }
}
