/// Reads `#challenge` lists (RFC 9110 §11.6.1). The grammar uses commas both between challenges and between a
/// challenge's auth-params, so after each comma the parser looks ahead: `token BWS "="` continues the parameters,
/// anything else starts the next challenge.
///
/// ```
/// challenge  = auth-scheme [ 1*SP ( token68 / #auth-param ) ]
/// auth-param = token BWS "=" BWS ( token / quoted-string )
/// token68    = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
/// ```
struct ChallengeParser {
    private let bytes: [UInt8]
    private var index = 0

    init(_ value: String) { bytes = Array(value.utf8) }

    private var atEnd: Bool { index >= bytes.count }
    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func parseChallenges(isProxy: Bool) -> [AuthenticationChallenge] {
        var challenges: [AuthenticationChallenge] = []
        while true {
            skip(where: { Self.isWhitespace($0) || $0 == UInt8(ascii: ",") })
            guard !atEnd else { return challenges }
            guard let scheme = readToken() else {
                skipElement()
                continue
            }
            var challenge = AuthenticationChallenge(scheme: AuthenticationScheme(scheme), isProxy: isProxy)
            let afterScheme = index
            skip(where: Self.isWhitespace)
            if index == afterScheme, let byte = current, byte != UInt8(ascii: ",") {
                // Something glued to the scheme (`Basic=x`): not a challenge.
                skipElement()
                continue
            }
            if let token68 = readToken68() {
                challenge.token68 = token68
            } else {
                readParameters(into: &challenge)
            }
            challenges.append(challenge)
            skip(where: Self.isWhitespace)
            if let byte = current, byte != UInt8(ascii: ",") { skipElement() }
        }
    }

    /// Reads `name=value` pairs separated by commas, stopping before the comma that starts the next challenge.
    private mutating func readParameters(into challenge: inout AuthenticationChallenge) {
        while let (name, value) = readParameter() {
            if challenge.parameters[name] == nil { challenge.parameters[name] = value }
            skip(where: Self.isWhitespace)
            guard current == UInt8(ascii: ",") else { return }
            let beforeComma = index
            skip(where: { Self.isWhitespace($0) || $0 == UInt8(ascii: ",") })
            guard isAtParameter() else {
                index = beforeComma
                return
            }
        }
    }

    /// One auth-param, or `nil` with nothing consumed.
    private mutating func readParameter() -> (String, String)? {
        let start = index
        guard let name = readToken() else { return nil }
        skip(where: Self.isWhitespace)
        guard current == UInt8(ascii: "=") else {
            index = start
            return nil
        }
        index += 1
        skip(where: Self.isWhitespace)
        let value: String
        if current == UInt8(ascii: "\"") {
            value = readQuotedString()
        } else {
            value = readToken() ?? ""
        }
        return (AuthenticationScheme(name).name, value)
    }

    /// Whether an auth-param (`token BWS "="`) starts here.
    private func isAtParameter() -> Bool {
        var probe = index
        while probe < bytes.count, Self.isTokenByte(bytes[probe]) { probe += 1 }
        guard probe > index else { return false }
        while probe < bytes.count, Self.isWhitespace(bytes[probe]) { probe += 1 }
        return probe < bytes.count && bytes[probe] == UInt8(ascii: "=")
    }

    /// A token68 that fills the rest of the list element, or `nil` with nothing consumed.
    private mutating func readToken68() -> String? {
        let start = index
        skip(where: Self.isToken68Byte)
        guard index > start else { return nil }
        skip(where: { $0 == UInt8(ascii: "=") })
        let end = index
        skip(where: Self.isWhitespace)
        guard atEnd || current == UInt8(ascii: ",") else {
            index = start
            return nil
        }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    private mutating func readToken() -> String? {
        let start = index
        skip(where: Self.isTokenByte)
        return index > start ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
    }

    /// A quoted-string starting at the opening quote, unescaped; an unterminated one runs to the end.
    private mutating func readQuotedString() -> String {
        index += 1
        var value: [UInt8] = []
        while let byte = current {
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: value, as: UTF8.self)
            case UInt8(ascii: "\\"):
                if let escaped = current {
                    value.append(escaped)
                    index += 1
                }
            default:
                value.append(byte)
            }
        }
        return String(decoding: value, as: UTF8.self)
    }

    /// Skips a malformed list element: up to the next comma outside a quoted string.
    private mutating func skipElement() {
        var quoted = false
        while let byte = current {
            if quoted {
                if byte == UInt8(ascii: "\\") { index += 1 } else if byte == UInt8(ascii: "\"") { quoted = false }
            } else if byte == UInt8(ascii: "\"") {
                quoted = true
            } else if byte == UInt8(ascii: ",") {
                return
            }
            index += 1
        }
    }

    private mutating func skip(where predicate: (UInt8) -> Bool) {
        while let byte = current, predicate(byte) { index += 1 }
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    /// `tchar` (RFC 9110 §5.6.2).
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }

    private static func isToken68Byte(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || "-._~+/".utf8.contains(byte)
    }
}
