import Foundation
import TapedeckCore
import X509

/// Reads certificates given as DER or PEM, naming the source of anything that is not a certificate.
enum CertificateLoader {
    /// The DER certificates in `item` (one for DER, every `CERTIFICATE` block for PEM), each checked to parse.
    static func derCertificates(in item: TLSSettings.Certificate, source: String) throws(SecurityPolicyError) -> [Data] {
        let ders: [Data]
        switch item {
        case .der(let der):
            ders = [der]
        case .pem(let pem):
            ders = try pemBlocks(in: pem, source: source)
        }
        for der in ders { _ = try parse(der, source: source) }
        return ders
    }

    /// Pins (DER and public key) for every certificate in `item`.
    static func pins(in item: TLSSettings.Certificate, source: String) throws(SecurityPolicyError) -> [ServerTrustPolicy.PinnedCertificate] {
        let ders: [Data]
        switch item {
        case .der(let der): ders = [der]
        case .pem(let pem): ders = try pemBlocks(in: pem, source: source)
        }
        var pins: [ServerTrustPolicy.PinnedCertificate] = []
        for der in ders {
            let certificate = try parse(der, source: source)
            pins.append(.init(der: der, subjectPublicKeyInfo: try subjectPublicKeyInfo(of: certificate, source: source)))
        }
        return pins
    }

    /// Parses one DER certificate.
    static func parse(_ der: Data, source: String) throws(SecurityPolicyError) -> Certificate {
        do {
            return try Certificate(derEncoded: Array(der))
        } catch {
            throw .unreadableCertificate(source: source, reason: "not a DER X.509 certificate (\(error))")
        }
    }

    /// The certificate's `SubjectPublicKeyInfo`, DER.
    static func subjectPublicKeyInfo(of certificate: Certificate, source: String) throws(SecurityPolicyError) -> Data {
        do {
            return Data(try certificate.publicKey.serializeAsPEM().derBytes)
        } catch {
            throw .unreadableCertificate(source: source, reason: "its public key cannot be encoded (\(error))")
        }
    }

    /// The base64 bodies of the `CERTIFICATE` blocks in `pem`, decoded.
    static func pemBlocks(in pem: Data, source: String) throws(SecurityPolicyError) -> [Data] {
        let blocks = PEMCertificates.blocks(in: String(decoding: pem, as: UTF8.self))
        if blocks.isEmpty {
            throw .unreadableCertificate(source: source, reason: "no \(PEMCertificates.begin) block")
        }
        return try blocks.map { block throws(SecurityPolicyError) in
            switch block {
            case .der(let der): return der
            case .notBase64: throw .unreadableCertificate(source: source, reason: "a PEM block is not valid base64")
            case .unterminated:
                throw .unreadableCertificate(source: source, reason: "a PEM block has no \(PEMCertificates.end) line")
            }
        }
    }

    /// Whether `data` looks like PEM text rather than DER.
    static func isPEM(_ data: Data) -> Bool {
        data.range(of: Data(PEMCertificates.begin.utf8)) != nil
    }
}

extension SecurityPolicy {
    /// File extensions ``certificates(inDirectory:)`` reads.
    public static let certificateFileExtensions: Set<String> = ["cer", "crt", "der", "pem"]

    /// Every certificate in `directory`'s `.cer`, `.crt`, `.der` and `.pem` files (not recursive), sorted by file
    /// name: AFNetworking's `certificatesInBundle:` for a folder. DER and PEM are told apart by content; a PEM file
    /// may hold several certificates.
    ///
    /// ```swift
    /// let pins = try SecurityPolicy.certificates(inDirectory: Bundle.module.resourceURL!.appending(path: "pins"))
    /// let policy = try SecurityPolicy(pinningMode: .certificate, pinnedCertificates: pins)
    /// ```
    /// - Throws: ``SecurityPolicyError/unreadableDirectory(_:reason:)``, or
    ///   ``SecurityPolicyError/unreadableCertificate(source:reason:)`` naming the file that is not a certificate.
    public static func certificates(inDirectory directory: URL) throws(SecurityPolicyError) -> [TLSSettings.Certificate] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw .unreadableDirectory(directory, reason: "\(error.localizedDescription)")
        }
        var result: [TLSSettings.Certificate] = []
        for name in names.sorted() where certificateFileExtensions.contains((name as NSString).pathExtension.lowercased()) {
            let file = directory.appendingPathComponent(name)
            let data: Data
            do {
                data = try Data(contentsOf: file)
            } catch {
                throw .unreadableCertificate(source: file.path, reason: error.localizedDescription)
            }
            let item: TLSSettings.Certificate = CertificateLoader.isPEM(data) ? .pem(data) : .der(data)
            for der in try CertificateLoader.derCertificates(in: item, source: file.path) {
                result.append(.der(der))
            }
        }
        return result
    }
}
