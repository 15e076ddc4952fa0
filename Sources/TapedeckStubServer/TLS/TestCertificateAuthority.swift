import Crypto
import Foundation
import SwiftASN1
import TapedeckCore
import X509

/// A certificate authority made at run time for one test run, issuing leaf certificates for the host names a test
/// uses, so HTTPS can be tested against a production base URL with no files and nothing trusted system-wide.
/// Keys are ECDSA P-256; certificates are valid from an hour ago for `validity`.
///
/// ```swift
/// let ca = try TestCertificateAuthority()
/// let identity = try ca.issue(for: ["api.example.com"])
/// let server = try StubServer(configuration: .init(tls: identity, hostNames: ["api.example.com"],
///                                                  trustedCertificates: [ca.trustAnchor]))
/// ```
public struct TestCertificateAuthority: Sendable {
    /// Why a certificate could not be made.
    public struct Error: Swift.Error, CustomStringConvertible {
        /// What failed.
        public var description: String
    }

    /// The CA certificate, PEM.
    public let certificatePEM: String
    /// The CA's name.
    public let commonName: String
    private let privateKey: P256.Signing.PrivateKey
    private let name: DistinguishedName
    private let validity: TimeInterval

    /// The CA certificate as an anchor for `TLSSettings` or `CurlTransport.Configuration`.
    public var trustAnchor: TLSSettings.Certificate { .pem(Data(certificatePEM.utf8)) }

    /// Creates a CA with a fresh key.
    public init(commonName: String = "Tapedeck Test CA", validity: TimeInterval = 7 * 86_400) throws(Error) {
        self.commonName = commonName
        self.validity = validity
        let key = P256.Signing.PrivateKey()
        privateKey = key
        do {
            let name = try DistinguishedName { CommonName(commonName) }
            self.name = name
            let now = Date()
            let certificate = try Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey),
                notValidBefore: now - 3600, notValidAfter: now + validity, issuer: name, subject: name,
                signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                    Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                    SubjectKeyIdentifier(hash: Certificate.PublicKey(key.publicKey))
                },
                issuerPrivateKey: .init(key))
            certificatePEM = try certificate.serializeAsPEM().pemString
        } catch {
            throw Error(description: "cannot create the test CA \"\(commonName)\": \(error)")
        }
    }

    /// Issues a leaf certificate for `hosts` (DNS names, IPv4 or IPv6 literals) and returns it with its key.
    /// `localhost`, `127.0.0.1` and `::1` are added so the server can also be reached by its address.
    public func issue(for hosts: [String]) throws(Error) -> TLSIdentity {
        let all = hosts + ["localhost", "127.0.0.1", "::1"].filter { !hosts.contains($0) }
        let key = P256.Signing.PrivateKey()
        do {
            var names: [GeneralName] = []
            for host in all {
                if let address = IPAddress(host)?.bytes {
                    names.append(.ipAddress(ASN1OctetString(contentBytes: ArraySlice(address))))
                } else {
                    guard Self.isValidDNSName(host) else {
                        throw Error(description: "\"\(host)\" is neither a DNS name nor an IP address literal")
                    }
                    names.append(.dnsName(host))
                }
            }
            let subject = try DistinguishedName { CommonName(hosts.first ?? "localhost") }
            let now = Date()
            let certificate = try Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey),
                notValidBefore: now - 3600, notValidAfter: now + validity, issuer: name, subject: subject,
                signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.notCertificateAuthority)
                    Critical(KeyUsage(digitalSignature: true))
                    try ExtendedKeyUsage([.serverAuth])
                    SubjectAlternativeNames(names)
                    AuthorityKeyIdentifier(keyIdentifier: SubjectKeyIdentifier(hash: Certificate.PublicKey(privateKey.publicKey)).keyIdentifier)
                },
                issuerPrivateKey: .init(privateKey))
            let chain = try certificate.serializeAsPEM().pemString + "\n"
            return TLSIdentity(certificateChainPEM: chain, privateKeyPEM: key.pemRepresentation + "\n")
        } catch let error as Error {
            throw error
        } catch {
            throw Error(description: "cannot issue a certificate for \(hosts): \(error)")
        }
    }

    /// Letters, digits, `-` and `.` in labels of 1–63 characters, optionally a leading `*.` wildcard.
    static func isValidDNSName(_ host: String) -> Bool {
        let name = host.hasPrefix("*.") ? String(host.dropFirst(2)) : host
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        return !name.isEmpty && name.count <= 253 && labels.allSatisfy { label in
            (1...63).contains(label.count) && label.first != "-" && label.last != "-"
                && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        }
    }
}
