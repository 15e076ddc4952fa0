#if Curl
import Foundation
import Tapedeck
import TapedeckCore
import Testing

/// Runs a test under each network status a user meets: offline, on Wi-Fi, on cellular, and losing the network
/// during the test. Each case scripts a `SimulatedNetwork` (for the `NetworkReachabilityManager` of the code
/// under test) and wraps the test's transport so it answers as the status implies: offline, every request fails
/// with `URLError.notConnectedToInternet` before reaching the cassette or server; otherwise requests go through.
///
/// ```swift
/// @Test(.cassette("sync"), arguments: ReachabilitySweep.cases)
/// func syncsWhenItCan(_ network: ReachabilitySweep.Case) async throws {
///     try await network.run { simulated, transport in
///         let sync = SyncService(transport: transport, reachability: NetworkReachabilityManager(source: .simulated(simulated)))
///         let outcome = await sync.run()
///         #expect(network.initial == .notReachable ? outcome == .queued : outcome != .crashed)
///     }
/// }
/// ```
public enum ReachabilitySweep {
    /// Offline, Wi-Fi, cellular, and Wi-Fi that goes offline after the first request.
    public static let cases: [Case] = [
        Case(.notReachable), Case(.reachableViaWiFi), Case(.reachableViaWWAN),
        Case(.reachableViaWiFi, changingTo: .notReachable, afterRequests: 1),
    ]

    /// One network condition.
    public struct Case: Sendable, Hashable, CustomStringConvertible, CustomTestStringConvertible {
        /// The status when the test starts.
        public var initial: NetworkReachabilityManager.Status
        /// The status the network changes to during the test, if it does.
        public var change: NetworkReachabilityManager.Status?
        /// How many requests go out before the change; it happens (and every monitoring manager has delivered it)
        /// before the next request is sent.
        public var afterRequests: Int

        /// A network that is `initial`, and changes to `change` after `afterRequests` requests when given.
        public init(_ initial: NetworkReachabilityManager.Status, changingTo change: NetworkReachabilityManager.Status? = nil,
                    afterRequests: Int = 1) {
            self.initial = initial
            self.change = change
            self.afterRequests = afterRequests
        }

        /// `offline`, `Wi-Fi`, `cellular`, `Wi-Fi, then offline after 1 request`.
        public var description: String {
            guard let change else { return Self.name(initial) }
            return "\(Self.name(initial)), then \(Self.name(change)) after \(afterRequests) request(s)"
        }

        /// How Swift Testing names the case in its results: the same text as ``description``.
        public var testDescription: String { description }

        private static func name(_ status: NetworkReachabilityManager.Status) -> String {
            switch status {
            case .unknown: "unknown"
            case .notReachable: "offline"
            case .reachableViaWiFi: "Wi-Fi"
            case .reachableViaWWAN: "cellular"
            }
        }

        /// Runs `body` under this condition with a fresh simulated network and the current test's transport
        /// (``TapedeckTest/transport``) wrapped to answer as the network's status implies; both are also
        /// ``TapedeckTest/currentNetwork`` and ``TapedeckTest/currentTransport`` while it runs.
        public func run(_ body: @Sendable (SimulatedNetwork, any HTTPTransport) async throws -> Void) async throws {
            let network = SimulatedNetwork(status: initial)
            let transport = ReachabilityTransport(base: TapedeckTest.transport, network: network, condition: self)
            try await TapedeckTest.$currentNetwork.withValue(network) {
                try await TapedeckTest.$currentTransport.withValue(transport) {
                    try await body(network, transport)
                }
            }
        }
    }
}

/// A transport that answers as a simulated network's status implies, and makes a ``ReachabilitySweep/Case``'s
/// change happen before the request after the chosen count.
final class ReachabilityTransport: HTTPTransport {
    let base: any HTTPTransport
    let network: SimulatedNetwork
    let condition: ReachabilitySweep.Case
    private let sent = Locked(0)

    init(base: any HTTPTransport, network: SimulatedNetwork, condition: ReachabilitySweep.Case) {
        self.base = base
        self.network = network
        self.condition = condition
    }

    func send(_ request: HTTPRequest, onEvent: HTTPEventHandler?) async throws -> HTTPResponse {
        let position = sent.withLock { count in
            defer { count += 1 }
            return count
        }
        if let change = condition.change, position == condition.afterRequests {
            await network.transition(to: change)
        }
        if network.status == .notReachable {
            throw URLError(.notConnectedToInternet, failingURL: request.url,
                           reason: "The Internet connection appears to be offline (simulated: \(condition))")
        }
        return try await base.send(request, onEvent: onEvent)
    }
}
#endif
