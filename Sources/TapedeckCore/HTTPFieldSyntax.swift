import Foundation

/// HTTP's field-value grammar (RFC 9110 §5.6): tokens (§5.6.2), quoted-strings (§5.6.4), optional whitespace
/// (§5.6.3) and comma-separated lists (§5.6.1). The one place the WWW-Authenticate, Cache-Control and
/// Sec-WebSocket-Extensions readers, and the writers of quoted parameters, take these rules from; each reader keeps
/// its own leniency on top (what it skips, what it refuses).
///
/// ```swift
/// var scanner = HTTPFieldSyntax.Scanner(#"realm="a \"b\"", nonce=1"#)
/// scanner.token()                  // "realm"
/// scanner.skip("=")                // true
/// scanner.quotedString()           // #"a "b""#
/// HTTPFieldSyntax.quoted(#"a "b""#) // #""a \"b\"""#
/// ```
package enum HTTPFieldSyntax {
    /// `tchar`: a visible ASCII character that is not a delimiter.
    package static func isTokenByte(_ byte: UInt8) -> Bool {
        byte.isASCIIAlphanumeric || "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }

    /// Whether `text` is a token: not empty, `tchar`s only.
    package static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy(isTokenByte)
    }

    /// Optional whitespace (`OWS`, `BWS`): a space or a horizontal tab.
    @inlinable
    package static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    /// `bytes` without leading and trailing optional whitespace; empty when there is nothing else. Inlinable: the
    /// curl transport trims every header line with it.
    @inlinable
    package static func trimmingWhitespace<Bytes: BidirectionalCollection<UInt8>>(_ bytes: Bytes) -> Bytes.SubSequence {
        guard let first = bytes.firstIndex(where: { !isWhitespace($0) }) else { return bytes[bytes.endIndex...] }
        let last = bytes.lastIndex(where: { !isWhitespace($0) })!
        return bytes[first...last]
    }

    /// `text` as a quoted-string, with `"` and `\` escaped by a backslash.
    package static func quoted(_ text: String) -> String {
        var bytes: [UInt8] = [UInt8(ascii: "\"")]
        bytes.reserveCapacity(text.utf8.count + 2)
        for byte in text.utf8 {
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { bytes.append(UInt8(ascii: "\\")) }
            bytes.append(byte)
        }
        bytes.append(UInt8(ascii: "\""))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The elements of a comma-separated list (`Connection`, `Upgrade`, `qop="auth,auth-int"`), trimmed of spaces,
    /// empty elements dropped. Commas inside quoted-strings are not told apart: for lists of tokens.
    package static func listElements(_ value: String) -> [String] {
        value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The parameters after the first `;` of a field value (`Content-Type`, `Content-Disposition`), by lowercased
    /// name, the first of a repeated name kept, with one pair of surrounding quotes removed (escapes are kept; a `;`
    /// inside quotes still separates): `form-data; name="a"; filename="b.txt"` → `["name": "a", "filename": "b.txt"]`.
    package static func parameters(of value: String) -> [String: String] {
        var result: [String: String] = [:]
        for parameter in value.split(separator: ";").dropFirst() {
            let pieces = parameter.split(separator: "=", maxSplits: 1)
            guard pieces.count == 2 else { continue }
            let name = pieces[0].trimmingCharacters(in: .whitespaces).lowercased()
            guard result[name] == nil else { continue }
            var text = pieces[1].trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 { text = String(text.dropFirst().dropLast()) }
            result[name] = text
        }
        return result
    }

    /// A cursor over a field value. It is a value: copy it to look ahead, assign the copy back to undo.
    package struct Scanner: Sendable {
        private let bytes: [UInt8]
        /// The offset of the next byte to read.
        package private(set) var position = 0

        /// A scanner at the start of `value`.
        package init(_ value: String) { bytes = Array(value.utf8) }

        /// Whether every byte has been read.
        package var isAtEnd: Bool { position >= bytes.count }

        /// The next byte, or `nil` at the end.
        package var current: UInt8? { position < bytes.count ? bytes[position] : nil }

        /// Moves past the next byte, if there is one.
        package mutating func advance() {
            if position < bytes.count { position += 1 }
        }

        /// Moves past `character` if it comes next.
        @discardableResult
        package mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard current == UInt8(ascii: character) else { return false }
            position += 1
            return true
        }

        /// Moves past optional whitespace.
        package mutating func skipWhitespace() { skip(while: HTTPFieldSyntax.isWhitespace) }

        /// Moves past the bytes that satisfy `predicate`.
        package mutating func skip(while predicate: (UInt8) -> Bool) {
            _ = bytes(while: predicate)
        }

        /// The bytes that satisfy `predicate`, read.
        package mutating func bytes(while predicate: (UInt8) -> Bool) -> ArraySlice<UInt8> {
            let start = position
            while position < bytes.count, predicate(bytes[position]) { position += 1 }
            return bytes[start..<position]
        }

        /// A token, or `nil` with nothing read.
        package mutating func token() -> String? {
            let token = bytes(while: HTTPFieldSyntax.isTokenByte)
            return token.isEmpty ? nil : String(decoding: token, as: UTF8.self)
        }

        /// A quoted-string starting here, without its quotes and escapes; `nil` with nothing read when no quote
        /// comes next. One without its closing quote is `nil` with nothing read too, unless
        /// `allowingUnterminated`: then it runs to the end of the value.
        package mutating func quotedString(allowingUnterminated: Bool = false) -> String? {
            let start = position
            guard skip("\"") else { return nil }
            var text: [UInt8] = []
            while let byte = current {
                position += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return String(decoding: text, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    if let escaped = current {
                        text.append(escaped)
                        position += 1
                    }
                default:
                    text.append(byte)
                }
            }
            guard allowingUnterminated else {
                position = start
                return nil
            }
            return String(decoding: text, as: UTF8.self)
        }
    }
}
