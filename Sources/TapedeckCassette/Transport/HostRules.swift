import Foundation

/// Which requests a cassette covers, from ``CassetteConfiguration/ignoreHosts``,
/// ``CassetteConfiguration/ignoreLoopback`` and ``CassetteConfiguration/allowedHosts``: pure logic, applied by
/// ``CassetteTransport`` before anything else.
package struct HostRules: Sendable, Hashable {
    /// What happens to a request.
    package enum Decision: Equatable {
        /// The cassette replays or records it, as the mode says.
        case cassette
        /// It goes live through the upstream, and is neither matched nor recorded.
        case live
        /// It is refused: its host is not allowed.
        case refused(host: String)
    }

    package var ignoreHosts: Set<String>
    package var ignoreLoopback: Bool
    package var allowedHosts: Set<String>?

    package init(ignoreHosts: Set<String>, ignoreLoopback: Bool, allowedHosts: Set<String>?) {
        self.ignoreHosts = Set(ignoreHosts.map { $0.lowercased() })
        self.ignoreLoopback = ignoreLoopback
        self.allowedHosts = allowedHosts.map { Set($0.map { $0.lowercased() }) }
    }

    /// Whether every request goes to the cassette (no rule set): the common case, checked without parsing a host.
    package var isEmpty: Bool { ignoreHosts.isEmpty && !ignoreLoopback && allowedHosts == nil }

    /// What happens to a request for `url`. Ignored hosts (and loopback, when ignored) are allowed implicitly.
    package func decision(for url: URL) -> Decision {
        guard !isEmpty else { return .cassette }
        let host = Self.bareHost(url.host ?? "")
        if Self.matches(host, ignoreHosts) || (ignoreLoopback && Self.isLoopback(host)) { return .live }
        if let allowedHosts, !Self.matches(host, allowedHosts) { return .refused(host: host) }
        return .cassette
    }

    /// Whether `host` is one of `patterns`: an exact name, or `*.example.com` for any subdomain of example.com.
    package static func matches(_ host: String, _ patterns: Set<String>) -> Bool {
        if patterns.contains(host) { return true }
        return patterns.contains { pattern in
            pattern.hasPrefix("*.") && host.hasSuffix(pattern.dropFirst())
        }
    }

    /// Whether `host` is a loopback address or name: 127.0.0.0/8, ::1, `localhost` and `*.localhost`.
    package static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host.hasSuffix(".localhost") || host == "::1" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }

    /// The host lowercased and without IPv6 brackets.
    package static func bareHost(_ host: String) -> String {
        var host = host.lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return host
    }

    /// `TAPEDECK_ALLOWED_HOSTS`, comma-separated, as a set; `nil` when unset or blank.
    package static func allowedHosts(fromEnvironment environment: [String: String]) -> Set<String>? {
        guard let value = environment[CassetteConfiguration.allowedHostsVariable] else { return nil }
        let hosts = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return hosts.isEmpty ? nil : Set(hosts)
    }
}
