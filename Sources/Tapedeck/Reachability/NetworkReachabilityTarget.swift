extension NetworkReachabilityManager {
    /// What a manager watches: any route to the internet, a host name, or an IP address.
    ///
    /// ```swift
    /// let target = try NetworkReachabilityManager.Target.domain("api.example.com")
    /// let manager = NetworkReachabilityManager(target: target)
    /// ```
    public struct Target: Sendable, Hashable, CustomStringConvertible {
        enum Kind: Sendable, Hashable {
            case internet
            case domain(String)
            case address(IPAddress)
        }

        let kind: Kind

        /// Any route to the internet: a default route (`0.0.0.0/0` or `::/0`) through an interface that is up and
        /// has an address of the route's family.
        public static let internet = Target(kind: .internet)

        /// A host name: reachable when it resolves and the kernel routes one of its addresses through a usable
        /// interface.
        ///
        /// - Throws: ``NetworkReachabilityError/invalidDomain(_:reason:)`` for an empty name, a URL, a name longer
        ///   than 253 characters, a label longer than 63, or a character a host name cannot contain.
        public static func domain(_ name: String) throws(NetworkReachabilityError) -> Target {
            try Target(kind: .domain(validatedDomain(name)))
        }

        /// An IPv4 or IPv6 address literal: reachable when the kernel routes it through a usable interface.
        ///
        /// - Throws: ``NetworkReachabilityError/invalidAddress(_:reason:)`` when `literal` is not an address.
        public static func address(_ literal: String) throws(NetworkReachabilityError) -> Target {
            if literal.contains("%") {
                throw .invalidAddress(literal, reason: "zone identifiers (\"%eth0\") are not supported")
            }
            guard let address = IPAddress(literal) else {
                throw .invalidAddress(literal, reason: "expected a dotted-quad IPv4 or an IPv6 address literal")
            }
            return Target(kind: .address(address))
        }

        /// "internet", the domain name, or the address.
        public var description: String {
            switch kind {
            case .internet: "internet"
            case .domain(let name): name
            case .address(let address): address.description
            }
        }

        static func validatedDomain(_ name: String) throws(NetworkReachabilityError) -> String {
            func invalid(_ reason: String) -> NetworkReachabilityError { .invalidDomain(name, reason: reason) }
            if name.isEmpty { throw invalid("it is empty") }
            if name.contains("://") { throw invalid("give the host name alone, not a URL") }
            let host = name.hasSuffix(".") ? String(name.dropLast()) : name
            if host.utf8.count > 253 { throw invalid("longer than 253 characters") }
            for label in host.split(separator: ".", omittingEmptySubsequences: false) {
                if label.isEmpty { throw invalid("it has an empty label") }
                if label.utf8.count > 63 { throw invalid("the label \"\(label)\" is longer than 63 characters") }
                if label.hasPrefix("-") || label.hasSuffix("-") {
                    throw invalid("the label \"\(label)\" starts or ends with a hyphen")
                }
                if let bad = label.unicodeScalars.first(where: { !Self.isHostCharacter($0) }) {
                    throw invalid("it contains \"\(bad.escaped(asASCII: true))\"; use letters, digits, hyphens "
                                  + "and underscores (IDNA-encode international names)")
                }
            }
            return host
        }

        private static func isHostCharacter(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "-", "_": true
            default: false
            }
        }
    }
}
