import Crypto
import Foundation
import TapedeckCore
import TapedeckStubServer
import X509

/// Certificates generated for one test run: a root → intermediate → leaf chain for `secure.test`, self-signed
/// leaves (common name only, subject alternative name only, no domain), an expired leaf, and an unrelated chain.
/// ECDSA P-256 throughout.
struct TestPKI: Sendable {
    /// One certificate with its key.
    struct Issued: Sendable {
        let certificate: Certificate
        let key: P256.Signing.PrivateKey
        var der: Data { Data(try! certificate.serializeAsPEM().derBytes) }
        var pem: String { try! certificate.serializeAsPEM().pemString + "\n" }
        var item: TLSSettings.Certificate { .der(der) }
    }

    static let host = "secure.test"
    static let wrongHost = "wrong.test"

    let root: Issued
    let intermediate: Issued
    let leaf: Issued
    let expiredLeaf: Issued
    let selfSignedCommonName: Issued
    let selfSignedAltName: Issued
    let selfSignedNoDomain: Issued
    let otherRoot: Issued
    let otherLeaf: Issued

    /// The shared set (generating keys is cheap, but the matrix reuses one set so cases compare like with like).
    static let shared = try! TestPKI()

    init() throws {
        let now = Date()
        root = try Self.make(subject: "Tapedeck Test Root", ca: true, issuer: nil)
        intermediate = try Self.make(subject: "Tapedeck Test Intermediate", ca: true, issuer: root)
        leaf = try Self.make(subject: Self.host, names: [Self.host], issuer: intermediate)
        expiredLeaf = try Self.make(subject: Self.host, names: [Self.host], issuer: intermediate,
                                    validity: (now - 10 * 86_400)...(now - 86_400))
        selfSignedCommonName = try Self.make(subject: Self.host, issuer: nil)
        selfSignedAltName = try Self.make(subject: nil, names: [Self.host], issuer: nil)
        selfSignedNoDomain = try Self.make(subject: nil, issuer: nil)
        otherRoot = try Self.make(subject: "Other Root", ca: true, issuer: nil)
        otherLeaf = try Self.make(subject: "other.test", names: ["other.test"], issuer: otherRoot)
    }

    /// The chain a server presents for `leaf` (intermediates after it; roots are never sent).
    func presented(_ leaf: Issued) -> [Issued] {
        switch leaf.certificate.issuer {
        case intermediate.certificate.subject: [leaf, intermediate]
        default: [leaf]
        }
    }

    /// A stub-server identity presenting `leaf`'s chain.
    func identity(_ leaf: Issued) -> TLSIdentity {
        TLSIdentity(certificateChainPEM: presented(leaf).map(\.pem).joined(),
                    privateKeyPEM: leaf.key.pemRepresentation + "\n")
    }

    private static func make(
        subject: String?, names: [String] = [], ca: Bool = false, issuer: Issued?,
        validity: ClosedRange<Date>? = nil
    ) throws -> Issued {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName {
            OrganizationName("Tapedeck Tests")
            if let subject { CommonName(subject) }
        }
        let now = Date()
        let dates = validity ?? (now - 30 * 86_400)...(now + 7 * 86_400)
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey),
            notValidBefore: dates.lowerBound, notValidAfter: dates.upperBound,
            issuer: issuer?.certificate.subject ?? name, subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                if ca {
                    Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                    Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                } else {
                    Critical(BasicConstraints.notCertificateAuthority)
                    Critical(KeyUsage(digitalSignature: true, keyCertSign: issuer == nil))
                    try ExtendedKeyUsage([.serverAuth])
                }
                if !names.isEmpty { SubjectAlternativeNames(names.map { .dnsName($0) }) }
                SubjectKeyIdentifier(hash: Certificate.PublicKey(key.publicKey))
                if let issuer {
                    AuthorityKeyIdentifier(keyIdentifier: SubjectKeyIdentifier(hash: issuer.certificate.publicKey).keyIdentifier)
                }
            },
            issuerPrivateKey: .init(issuer?.key ?? key))
        return Issued(certificate: certificate, key: key)
    }
}
