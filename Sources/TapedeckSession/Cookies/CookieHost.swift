import TapedeckCore

/// Host names and domains as cookies compare them (RFC 6265 §5.1.2, §5.1.3): ASCII lower case, IP addresses matched
/// only by themselves. Internationalised names are compared as given (a URL's host is already in its ASCII, punycode
/// form); no IDNA conversion is done here.
enum CookieHost {
    /// `host` in lower case, without the brackets of an IPv6 literal.
    static func canonicalHost(_ host: String) -> String {
        var host = host
        if host.utf8.first == UInt8(ascii: "["), host.utf8.last == UInt8(ascii: "]") {
            host = String(host.dropFirst().dropLast())
        }
        return host.asciiLowercased
    }

    /// A `Domain` attribute or ``Cookie/domain`` in lower case without its leading dot.
    static func canonicalDomain(_ domain: some StringProtocol) -> String {
        var domain = Substring(domain)
        if domain.utf8.first == UInt8(ascii: ".") { domain = domain.dropFirst() }
        return String(domain).asciiLowercased
    }

    /// `true` when `host` (canonical) is an IPv4 or IPv6 address rather than a name.
    static func isIPAddress(_ host: String) -> Bool {
        guard let last = host.utf8.last else { return false }
        // A name's last label is never all digits, and only IPv6 literals contain colons.
        guard (0x30...0x39).contains(last) || host.utf8.contains(UInt8(ascii: ":")) else { return false }
        return IPAddress(host) != nil
    }

    /// §5.1.3: `host` and `domain` are identical, or `host` is a name that ends with `.` + `domain`.
    static func domainMatches(host: String, domain: some StringProtocol) -> Bool {
        if host == domain { return true }
        let hostBytes = host.utf8
        let domainBytes = domain.utf8
        guard hostBytes.count > domainBytes.count, hostBytes.reversed().starts(with: domainBytes.reversed()),
              !isIPAddress(host)
        else { return false }
        let dot = hostBytes.index(hostBytes.endIndex, offsetBy: -(domainBytes.count + 1))
        return hostBytes[dot] == UInt8(ascii: ".")
    }
}
