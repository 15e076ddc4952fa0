import Foundation
import TapedeckCore

/// Every (interaction, fault) pair of a fault sweep over one cassette: the code under test runs once per pair, with
/// that interaction replaced by the fault and every other one replayed as recorded. Pure: the plan reads the
/// cassette once and says which pairs run and which are skipped (the fault does not apply) and why.
///
/// Pairs come interaction by interaction, faults in the order given, so the plan (and the names of its test cases)
/// is the same on every run.
///
/// ```swift
/// let plan = try FaultSweepPlan(cassette: URL(fileURLWithPath: "Cassettes/login.json"),
///                               faults: [.timeout, .resetMidBody], interactions: ["GET /v1/*"])
/// for pair in plan.pairs { print(pair.name) }          // GET /v1/me · timeout …
/// for skipped in plan.skipped { print(skipped.name, skipped.reason) }
/// ```
public struct FaultSweepPlan: Sendable {
    /// One interaction under one fault.
    public struct Pair: Sendable, Hashable, CustomStringConvertible {
        /// The interaction's position in the cassette.
        public var index: Int
        /// `METHOD /path?query` of the interaction (with `#index` when another chosen interaction reads the same).
        public var interaction: String
        /// The fault.
        public var fault: InteractionFault
        /// What replaces the recorded answer.
        public var answer: Interaction.Outcome
        /// Whether the pair is a ``KnownFailure``.
        public var isKnown: Bool
        /// What happens to the recorded WebSocket conversation under a WebSocket fault (the ``answer`` is then the
        /// recorded `101`), else `nil`.
        public var conversation: ConversationFault?

        /// Creates a pair.
        public init(index: Int, interaction: String, fault: InteractionFault, answer: Interaction.Outcome, isKnown: Bool,
                    conversation: ConversationFault? = nil) {
            self.index = index
            self.interaction = interaction
            self.fault = fault
            self.answer = answer
            self.isKnown = isKnown
            self.conversation = conversation
        }

        /// `GET /v1/me · reset mid-body`: the name of the pair's test case.
        public var name: String { "\(interaction) · \(fault)" }
        /// How messages and reports print it.
        public var description: String { name }

        /// `base` with its faults replaced by this pair's: its ``conversation`` fault, or its ``replayFault(clock:)``.
        /// In process and on a served cassette alike, this is the configuration that carries the pair out.
        ///
        /// ```swift
        /// try server.serve(cassette: url, configuration: pair.configuration())
        /// ```
        public func configuration(_ base: CassetteConfiguration = CassetteConfiguration(),
                                  clock: any WallClock = SystemWallClock()) -> CassetteConfiguration {
            var configuration = base
            configuration.faults = conversation == nil ? [replayFault(clock: clock)] : []
            configuration.conversationFaults = conversation.map { [$0] } ?? []
            return configuration
        }

        /// The ``ReplayFault`` that carries the pair out. It fires once, so that a client that retries gets the
        /// recording; a `503` stays in force until its `Retry-After` has passed on `clock` (the clock the code under
        /// test waits on), so that retrying sooner fails again, as it would against a real server.
        public func replayFault(clock: any WallClock = SystemWallClock()) -> ReplayFault {
            var replay = ReplayFault(interaction: index, action: .answer(answer), times: fault == .serviceUnavailable ? nil : 1)
            if fault == .serviceUnavailable {
                let deadline = Locked<Date?>(nil)
                let wait = TimeInterval(InteractionFault.retryAfterSeconds)
                replay.predicate = { _ in
                    let now = clock.now
                    return deadline.withLock { deadline in
                        guard let end = deadline else {
                            deadline = now.addingTimeInterval(wait)
                            return true
                        }
                        return now < end
                    }
                }
            }
            return replay
        }
    }

    /// A pair that does not run, and why.
    public struct Skipped: Sendable, Hashable, Codable, CustomStringConvertible {
        /// The interaction's position in the cassette.
        public var index: Int
        /// `METHOD /path?query` of the interaction.
        public var interaction: String
        /// The fault.
        public var fault: InteractionFault
        /// Why the fault does not apply, e.g. `a 204 with 0 body byte(s) has no body to cut`.
        public var reason: String

        /// `DELETE /v1/items/7 · reset mid-body`.
        public var name: String { "\(interaction) · \(fault)" }
        /// How messages and reports print it.
        public var description: String { "\(name) (skipped: \(reason))" }
    }

    /// The cassette file.
    public var cassette: URL
    /// The pairs that run, in order.
    public var pairs: [Pair]
    /// The pairs whose fault does not apply, in order.
    public var skipped: [Skipped]

    /// Plans a sweep of the cassette at `cassette`.
    ///
    /// - Parameters:
    ///   - cassette: the cassette file.
    ///   - faults: the faults to try (every ``InteractionFault`` by default), in this order.
    ///   - interactions: which interactions to fault; empty (the default) for all.
    ///   - known: pairs expected to fail.
    /// - Throws: ``FaultSweepError/cassette(_:)`` when the cassette cannot be read.
    public init(cassette: URL, faults: [InteractionFault] = InteractionFault.allCases, interactions: [InteractionPattern] = [],
                known: [KnownFailure] = []) throws(FaultSweepError) {
        let loaded: Cassette
        do { loaded = try CassetteFile.load(cassette) } catch { throw FaultSweepError.cassette(error) }
        self.init(cassette: loaded, file: cassette, faults: faults, interactions: interactions, known: known) { body in
            try? CassetteFile.bodyData(body, cassette: cassette)
        }
    }

    /// Plans a sweep of `cassette`, kept at `file`; `bodyBytes` reads a sidecar body.
    public init(cassette: Cassette, file: URL, faults: [InteractionFault] = InteractionFault.allCases,
                interactions: [InteractionPattern] = [], known: [KnownFailure] = [],
                bodyBytes: (CassetteBody) -> Data? = { $0.inlineData }) {
        self.cassette = file
        var pairs: [Pair] = []
        var skipped: [Skipped] = []
        let chosen = cassette.interactions.indices.filter { index in
            interactions.isEmpty || interactions.contains { $0.matches(cassette.interactions[index].request) }
        }
        let labels = chosen.map { Self.label(of: cassette.interactions[$0].request) }
        var counts: [String: Int] = [:]
        for label in labels { counts[label, default: 0] += 1 }
        for (position, index) in chosen.enumerated() {
            let interaction = cassette.interactions[index]
            let label = counts[labels[position], default: 0] > 1 ? "\(labels[position]) #\(index)" : labels[position]
            let body = interaction.response.flatMap { bodyBytes($0.body) }
            for fault in faults {
                let planned: Result<(Interaction.Outcome, ConversationFault?), InteractionFault.NotApplicable> = fault.isWebSocketFault
                    ? fault.conversationFault(replacing: interaction, at: index).map { (interaction.outcome, $0) }
                    : fault.answer(replacing: interaction, body: body).map { ($0, nil) }
                switch planned {
                case .success(let (answer, conversation)):
                    let isKnown = known.contains { $0.covers(interaction.request, fault) }
                    pairs.append(Pair(index: index, interaction: label, fault: fault, answer: answer, isKnown: isKnown,
                                      conversation: conversation))
                case .failure(let notApplicable):
                    skipped.append(Skipped(index: index, interaction: label, fault: fault, reason: notApplicable.reason))
                }
            }
        }
        self.pairs = pairs
        self.skipped = skipped
    }

    /// `METHOD /path?query`.
    static func label(of request: Interaction.Request) -> String {
        "\(request.method) \(URLParts(request.url).pathAndQuery)"
    }
}
