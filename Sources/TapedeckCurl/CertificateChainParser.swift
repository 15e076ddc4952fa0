import Foundation

/// Extracts DER certificates from the text libcurl's `CURLINFO_CERTINFO` gives (one `Cert:` field of PEM
/// per certificate). Pure logic, no I/O.
enum CertificateChainParser {
    static let begin = "-----BEGIN CERTIFICATE-----"
    static let end = "-----END CERTIFICATE-----"

    /// Every certificate in `pem`, in order, as DER.
    static func derCertificates(inPEM pem: String) -> [Data] {
        var result: [Data] = []
        var rest = pem[...]
        while let start = rest.range(of: begin), let stop = rest.range(of: end, range: start.upperBound..<rest.endIndex) {
            let body = rest[start.upperBound..<stop.lowerBound].filter { !$0.isWhitespace }
            if let der = Data(base64Encoded: String(body)) {
                result.append(der)
            }
            rest = rest[stop.upperBound...]
        }
        return result
    }
}
