import TapedeckCore

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
    private var scanner: HTTPFieldSyntax.Scanner

    init(_ value: String) { scanner = HTTPFieldSyntax.Scanner(value) }

    mutating func parseChallenges(isProxy: Bool) -> [AuthenticationChallenge] {
        var challenges: [AuthenticationChallenge] = []
        while true {
            scanner.skip(while: Self.isWhitespaceOrComma)
            guard !scanner.isAtEnd else { return challenges }
            guard let scheme = scanner.token() else {
                skipElement()
                continue
            }
            var challenge = AuthenticationChallenge(scheme: AuthenticationScheme(scheme), isProxy: isProxy)
            let afterScheme = scanner.position
            scanner.skipWhitespace()
            if scanner.position == afterScheme, let byte = scanner.current, byte != UInt8(ascii: ",") {
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
            scanner.skipWhitespace()
            if let byte = scanner.current, byte != UInt8(ascii: ",") { skipElement() }
        }
    }

    /// Reads `name=value` pairs separated by commas, stopping before the comma that starts the next challenge.
    private mutating func readParameters(into challenge: inout AuthenticationChallenge) {
        while let (name, value) = readParameter() {
            if challenge.parameters[name] == nil { challenge.parameters[name] = value }
            scanner.skipWhitespace()
            guard scanner.current == UInt8(ascii: ",") else { return }
            let beforeComma = scanner
            scanner.skip(while: Self.isWhitespaceOrComma)
            guard isAtParameter() else {
                scanner = beforeComma
                return
            }
        }
    }

    /// One auth-param, or `nil` with nothing consumed. An unterminated quoted value runs to the end.
    private mutating func readParameter() -> (String, String)? {
        let start = scanner
        guard let name = scanner.token() else { return nil }
        scanner.skipWhitespace()
        guard scanner.skip("=") else {
            scanner = start
            return nil
        }
        scanner.skipWhitespace()
        let value = scanner.quotedString(allowingUnterminated: true) ?? scanner.token() ?? ""
        return (AuthenticationScheme(name).name, value)
    }

    /// Whether an auth-param (`token BWS "="`) starts here.
    private func isAtParameter() -> Bool {
        var probe = scanner
        guard probe.token() != nil else { return false }
        probe.skipWhitespace()
        return probe.current == UInt8(ascii: "=")
    }

    /// A token68 that fills the rest of the list element, or `nil` with nothing consumed.
    private mutating func readToken68() -> String? {
        let start = scanner
        let body = scanner.bytes(while: Self.isToken68Byte)
        guard !body.isEmpty else { return nil }
        let padding = scanner.bytes(while: { $0 == UInt8(ascii: "=") })
        scanner.skipWhitespace()
        guard scanner.isAtEnd || scanner.current == UInt8(ascii: ",") else {
            scanner = start
            return nil
        }
        return String(decoding: body + padding, as: UTF8.self)
    }

    /// Skips a malformed list element: up to the next comma outside a quoted string.
    private mutating func skipElement() {
        while let byte = scanner.current, byte != UInt8(ascii: ",") {
            if scanner.quotedString(allowingUnterminated: true) == nil { scanner.advance() }
        }
    }

    private static func isWhitespaceOrComma(_ byte: UInt8) -> Bool {
        HTTPFieldSyntax.isWhitespace(byte) || byte == UInt8(ascii: ",")
    }

    private static func isToken68Byte(_ byte: UInt8) -> Bool {
        byte.isASCIIAlphanumeric || "-._~+/".utf8.contains(byte)
    }
}
