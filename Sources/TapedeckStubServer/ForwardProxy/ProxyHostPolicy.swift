import Foundation
import TapedeckCassette

/// Which hosts a ``ForwardProxy`` records or replays, passes through unrecorded, or refuses: pure logic over the
/// cassette module's host rules (exact names and `*.example.com` patterns, `TAPEDECK_ALLOWED_HOSTS`).
struct ProxyHostPolicy: Sendable, Hashable {
    /// What happens to a request for a host.
    enum Decision: Equatable {
        /// The cassette records or replays it.
        case cassette
        /// It is forwarded (or tunnelled) to the host as it is, and not recorded.
        case passthrough
        /// It is refused; the text says which host and how to allow it.
        case refused(String)
    }

    /// The hosts the cassette covers, lowercased; `nil` for every host.
    let allowedHosts: Set<String>?
    /// Whether a host outside ``allowedHosts`` is passed through instead of refused.
    let passthrough: Bool

    /// The policy for `allowedHosts`, replaced by `TAPEDECK_ALLOWED_HOSTS` in `environment` when that is set.
    init(allowedHosts: Set<String>?, passthrough: Bool, environment: [String: String]) {
        let hosts = HostRules.allowedHosts(fromEnvironment: environment) ?? allowedHosts
        self.allowedHosts = hosts.map { Set($0.map { HostRules.bareHost($0) }) }
        self.passthrough = passthrough
    }

    /// What happens to a request for `host` (a name or an address literal, IPv6 with or without brackets).
    func decision(forHost host: String) -> Decision {
        let bare = HostRules.bareHost(host)
        guard let allowedHosts, !HostRules.matches(bare, allowedHosts) else { return .cassette }
        if passthrough { return .passthrough }
        return .refused(
            "Tapedeck's forward proxy refused a request to \(bare): the host is not among the allowed hosts ("
                + allowedHosts.sorted().joined(separator: ", ") + "). Allow it with --allow-host \(bare) "
                + "(ForwardProxy.Configuration.allowedHosts, or \(CassetteConfiguration.allowedHostsVariable)), or pass "
                + "hosts outside the list through unrecorded with --passthrough.")
    }
}
