import Foundation
import TapedeckCore
import X509

/// Whether a certificate names a host, by the rules libcurl applies with OpenSSL (`X509_check_host` /
/// `X509_check_ip_asc`), so a recorded chain is judged as the live transport judges it: an IP literal must match
/// an IP subject alternative name; a DNS name must match a DNS subject alternative name (a leading `*.` matches
/// exactly one label), or, when the certificate has no DNS name at all, its common name. Case-insensitive.
enum HostNameMatcher {
    static func matches(_ certificate: Certificate, host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let names = (try? certificate.extensions.subjectAlternativeNames).flatMap { $0 }.map(Array.init) ?? []
        if let address = IPAddress(bare)?.bytes {
            return names.contains { name in
                if case .ipAddress(let octets) = name { return Array(octets.bytes) == address }
                return false
            }
        }
        let dnsNames = names.compactMap { name -> String? in
            if case .dnsName(let dns) = name { return dns }
            return nil
        }
        let candidates = dnsNames.isEmpty ? commonNames(of: certificate) : dnsNames
        return candidates.contains { matches(pattern: $0, host: bare) }
    }

    static func matches(pattern: String, host: String) -> Bool {
        let pattern = pattern.lowercased(), host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "."))
        guard pattern.hasPrefix("*.") else { return pattern == host }
        let suffix = pattern.dropFirst(1)  // ".example.com"
        guard host.hasSuffix(suffix), suffix.split(separator: ".").count >= 2 else { return false }
        let label = host.dropLast(suffix.count)
        return !label.isEmpty && !label.contains(".")
    }

    static func commonNames(of certificate: Certificate) -> [String] {
        certificate.subject.flatMap { $0 }.filter { $0.type == .RDNAttributeType.commonName }.compactMap { String($0.value) }
    }
}
