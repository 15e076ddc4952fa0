import Foundation
import Testing
import TapedeckCore

@Suite struct PEMCertificatesTests {
    @Test func everyPEMBlockBecomesOneDERCertificate() {
        let first = Data([1, 2, 3, 4]).base64EncodedString()
        let second = Data(repeating: 9, count: 100).base64EncodedString(options: .lineLength64Characters)
        let text = "-----BEGIN CERTIFICATE-----\n\(first)\n-----END CERTIFICATE-----\nnoise\n"
            + "-----BEGIN CERTIFICATE-----\n\(second)\n-----END CERTIFICATE-----\n"
        #expect(PEMCertificates.blocks(in: text) == [.der(Data([1, 2, 3, 4])), .der(Data(repeating: 9, count: 100))])
        #expect(PEMCertificates.blocks(in: "no certificates").isEmpty)
    }

    @Test func aBadBodyAndAMissingEndLineAreSaid() {
        let text = "-----BEGIN CERTIFICATE-----\n!!\n-----END CERTIFICATE-----\n-----BEGIN CERTIFICATE-----\nAQID\n"
        #expect(PEMCertificates.blocks(in: text) == [.notBase64, .unterminated])
    }

    @Test func whatEncodeWritesBlocksReadBack() {
        let der = Data((0..<200).map { UInt8($0) })
        let pem = PEMCertificates.encode(der)
        #expect(PEMCertificates.blocks(in: pem) == [.der(der)])
        #expect(pem.split(separator: "\n").dropFirst().dropLast().allSatisfy { $0.count <= 64 })
    }
}
