import Foundation
import TapedeckCore

/// The JSON-RPC readings of the bodies a matcher has compared (see ``JSONRPCBody/comparable(ignoring:)``), so that a
/// recorded body is read once however many live requests are compared with it, and a live body once however many
/// candidates it meets. Bounded: it starts afresh past ``limit`` entries.
final class JSONRPCReadings: Sendable {
    /// A body's reading: its comparable text when it is JSON-RPC, else `nil` (it is compared byte for byte).
    struct Reading: Sendable {
        var body: JSONRPCBody
        var comparable: String?
    }

    /// How many readings are kept.
    static let limit = 4096
    private let ignored: Set<JSONPath>
    private let readings = Locked<[Data: Reading]>([:])
    /// ``JSONRPCQuickComparison/isCall(_:)`` of each recorded body asked about: a new session's calls (other ids) are
    /// compared with the same recorded bodies again and again. (Kept per matcher: a cache for the whole process held
    /// the cassettes' bodies past their end, and LeakSanitizer cannot follow a `Data` kept in a static dictionary.)
    private let calls = Locked<[Data: Bool]>([:])

    init(ignoring ignored: Set<JSONPath>) {
        self.ignored = ignored
    }

    /// Whether `body` is surely a JSON-RPC call (``JSONRPCQuickComparison/isCall(_:)``), remembered.
    func isCall(_ body: Data) -> Bool {
        if let known = calls.withLock({ $0[body] }) { return known }
        let isCall = JSONRPCQuickComparison.isCall(body)
        calls.withLock { known in
            if known.count >= Self.limit { known.removeAll(keepingCapacity: true) }
            known[body] = isCall
        }
        return isCall
    }

    /// The reading of `body`, remembered.
    func read(_ body: Data) -> Reading {
        if let known = readings.withLock({ $0[body] }) { return known }
        let parsed = JSONRPCBody.read(body)
        let reading = Reading(body: parsed, comparable: parsed.comparable(ignoring: ignored))
        readings.withLock { known in
            if known.count >= Self.limit { known.removeAll(keepingCapacity: true) }
            known[body] = reading
        }
        return reading
    }
}
