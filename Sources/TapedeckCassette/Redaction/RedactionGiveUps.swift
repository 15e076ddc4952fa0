import Foundation
import TapedeckCore

/// Where redaction's regular-expression filters gave up (`RegexStepLimit`). The text a filter gave up on may hold
/// the secret it was to remove, so that text is replaced whole by ``Redaction/placeholder``: whoever writes it, no
/// secret reaches disk. The writers (recording, `redact`, imports) also open a scope with
/// ``Redaction/refusingGiveUps(file:place:_:)`` and write nothing when a filter gave up inside it, naming the filter.
final class RedactionGiveUps: Sendable {
    /// The scope open on this task, if any.
    @TaskLocal static var current: RedactionGiveUps?

    private let lines = Locked<[String]>([])

    /// Notes `line` (`regex /…/ gave up after …`) in the scope open on this task; without a scope the placeholder alone
    /// keeps the secret off disk.
    static func note(_ line: String) {
        current?.lines.withLock { if !$0.contains(line) { $0.append(line) } }
    }

    /// Runs `body` in a scope of its own; returns what it returns and the give-ups noted while it ran.
    static func collecting<Success, Failure: Error>(_ body: () throws(Failure) -> Success) throws(Failure) -> (Success, [String]) {
        let scope = RedactionGiveUps()
        let result = $current.withValue(scope) { Result { () throws(Failure) -> Success in try body() } }
        return (try result.get(), scope.lines.withLock { $0 })
    }
}

extension Redaction {
    /// Runs `body`, which redacts something bound for `file`, and refuses with
    /// ``CassetteError/redactionGaveUp(file:place:problems:)`` when a regular-expression filter gave up inside it:
    /// what a writer outside this module (an importer) wraps its redaction in before it writes.
    ///
    /// ```swift
    /// try Redaction.refusingGiveUps(file: "imported.json", place: "interactions[2]") {
    ///     redaction.redact(&interaction)
    /// }
    /// ```
    public static func refusingGiveUps<Success>(file: String, place: @autoclosure () -> String,
                                         _ body: () throws(CassetteError) -> Success) throws(CassetteError) -> Success {
        let (result, giveUps) = try RedactionGiveUps.collecting(body)
        try refuse(giveUps, file: file, place: place())
        return result
    }

    /// Throws ``CassetteError/redactionGaveUp(file:place:problems:)`` when `giveUps` (from
    /// ``RedactionGiveUps/collecting(_:)``) is not empty.
    static func refuse(_ giveUps: [String], file: String, place: @autoclosure () -> String) throws(CassetteError) {
        guard giveUps.isEmpty else { throw CassetteError.redactionGaveUp(file: file, place: place(), problems: giveUps) }
    }
}
