import Foundation
import Testing
import Tapedeck
import TapedeckTestSupport

/// Building, loading and validating policies: bad configurations fail when configured, not when traffic flows.
@Suite struct SecurityPolicyConfigurationTests {
    let pki = TestPKI.shared

    @Test func theDefaultPolicyIsAFNetworkings() {
        let policy = SecurityPolicy.default
        #expect(policy.pinningMode == .none)
        #expect(!policy.allowInvalidCertificates)
        #expect(policy.validatesDomainName)
        #expect(policy.pinnedCertificates.isEmpty)
    }

    @Test func pinsMayBeDEROrPEMAndAreDeduplicated() throws {
        let pem = Data((pki.leaf.pem + pki.intermediate.pem).utf8)
        let policy = try SecurityPolicy(pinningMode: .certificate, pinnedCertificates: [.pem(pem), .der(pki.leaf.der)])
        #expect(policy.pinnedCertificates == [pki.leaf.der, pki.intermediate.der])
    }

    @Test func aBadPinNamesItsPosition() {
        #expect(throws: SecurityPolicyError.unreadableCertificate(source: "#2 of the pinned certificates",
                                                                  reason: "no -----BEGIN CERTIFICATE----- block")) {
            try SecurityPolicy(pinningMode: .publicKey, pinnedCertificates: [pki.leaf.item, .pem(Data("hello".utf8))])
        }
        #expect(throws: SecurityPolicyError.self) {
            try SecurityPolicy(pinningMode: .publicKey, pinnedCertificates: [.der(Data([0x30, 0x03, 1, 2, 3]))])
        }
    }

    @Test func certificatesAreLoadedFromAFolderAndABadFileIsNamed() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let folder = directory.url
        try pki.leaf.der.write(to: folder.appendingPathComponent("a-leaf.cer"))
        try Data((pki.intermediate.pem + pki.root.pem).utf8).write(to: folder.appendingPathComponent("b-cas.pem"))
        try Data("not a certificate".utf8).write(to: folder.appendingPathComponent("README.txt"))
        let loaded = try SecurityPolicy.certificates(inDirectory: folder)
        #expect(loaded == [pki.leaf.item, pki.intermediate.item, pki.root.item])

        let bad = folder.appendingPathComponent("c-broken.crt")
        try Data("garbage".utf8).write(to: bad)
        do {
            _ = try SecurityPolicy.certificates(inDirectory: folder)
            Issue.record("a broken certificate file was accepted")
        } catch {
            guard case .unreadableCertificate(let source, _) = error else { Issue.record("\(error)"); return }
            #expect(source == bad.path)
            #expect(error.description.contains("c-broken.crt"))
        }
        #expect(throws: SecurityPolicyError.self) {
            try SecurityPolicy.certificates(inDirectory: folder.appendingPathComponent("missing"))
        }
    }

    @Test func validationRejectsAFNetworkingsInvalidConfigurations() throws {
        let https = URL(string: "https://api.example.com")!
        let http = URL(string: "http://api.example.com")!
        #expect(throws: SecurityPolicyError.pinningWithoutCertificates(.publicKey)) {
            try SecurityPolicy(pinningMode: .publicKey).validate(for: https)
        }
        #expect(throws: SecurityPolicyError.pinningWithoutCertificates(.certificate)) {
            try SecurityPolicy(pinningMode: .certificate).validate(for: https)
        }
        let pinned = try SecurityPolicy(pinningMode: .certificate, pinnedCertificates: [pki.root.item])
        #expect(throws: SecurityPolicyError.pinningRequiresHTTPS(baseURL: http)) { try pinned.validate(for: http) }
        try pinned.validate(for: https)
        try pinned.validate(for: nil)
        var lax = SecurityPolicy.default
        lax.allowInvalidCertificates = true
        #expect(throws: SecurityPolicyError.domainValidationRequiresPinning) { try lax.validate(for: https) }
        lax.validatesDomainName = false
        try lax.validate(for: https)
        try SecurityPolicy.default.validate(for: http)
    }

    @Test func errorsBridgeToNSErrorWithStableCodes() {
        let error = SecurityPolicyError.pinningRequiresHTTPS(baseURL: URL(string: "http://x.test")!) as NSError
        #expect(error.domain == "TapedeckSecurityPolicyErrorDomain")
        #expect(error.code == 4)
        #expect(error.localizedDescription.contains("http://x.test"))
    }

    @Test func aSessionManagerRefusesAnInvalidPolicyAndKeepsTheOldOne() throws {
        let http = HTTPSessionManager(baseURL: URL(string: "http://api.example.com")!)
        let pinned = try SecurityPolicy(pinningMode: .publicKey, pinnedCertificates: [pki.leaf.item])
        #expect(throws: SecurityPolicyError.pinningRequiresHTTPS(baseURL: URL(string: "http://api.example.com")!)) {
            try http.setSecurityPolicy(pinned)
        }
        #expect(http.securityPolicy == .default)
        #expect(throws: SecurityPolicyError.self) {
            try HTTPSessionManager(baseURL: URL(string: "http://api.example.com")!, securityPolicy: pinned)
        }
        let https = try HTTPSessionManager(baseURL: URL(string: "https://api.example.com")!, securityPolicy: pinned)
        #expect(https.securityPolicy == pinned)
    }
}
