import Foundation

/// PEM `CERTIFICATE` blocks (RFC 7468 §5), read and written: the one reader behind libcurl's certificate-chain text
/// and the security policy's certificate files, each with its own leniency (the chain skips a bad block, a file the
/// user named is refused).
///
/// ```swift
/// let pem = PEMCertificates.encode(der)
/// PEMCertificates.blocks(in: pem)   // [.der(der)]
/// ```
package enum PEMCertificates {
    /// The line that opens a block.
    package static let begin = "-----BEGIN CERTIFICATE-----"
    /// The line that closes a block.
    package static let end = "-----END CERTIFICATE-----"

    /// One block as read.
    package enum Block: Equatable, Sendable {
        /// The block's base64 body, decoded.
        case der(Data)
        /// The body is not base64.
        case notBase64
        /// The block has no `end` line (it is always the last).
        case unterminated

        /// The DER bytes, when the block has them.
        package var der: Data? {
            if case .der(let der) = self { der } else { nil }
        }
    }

    /// The `CERTIFICATE` blocks of `text`, in order; text outside them is ignored, and so is whitespace in a body.
    package static func blocks(in text: String) -> [Block] {
        var blocks: [Block] = []
        var rest = text[...]
        while let start = rest.range(of: begin) {
            guard let stop = rest.range(of: end, range: start.upperBound..<rest.endIndex) else {
                blocks.append(.unterminated)
                break
            }
            let body = rest[start.upperBound..<stop.lowerBound].filter { !$0.isWhitespace }
            blocks.append(Data(base64Encoded: String(body)).map(Block.der) ?? .notBase64)
            rest = rest[stop.upperBound...]
        }
        return blocks
    }

    /// `der` as one block: base64 in lines of 64 characters, each line ending in a line feed.
    package static func encode(_ der: Data) -> String {
        let base64 = der.base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "\(begin)\n\(base64)\n\(end)\n"
    }
}
