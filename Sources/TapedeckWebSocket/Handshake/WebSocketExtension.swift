import Foundation

/// One entry of a `Sec-WebSocket-Extensions` header (RFC 6455 §9.1): a name and its parameters, e.g.
/// `permessage-deflate; client_max_window_bits=15`.
///
/// ```swift
/// let offered = try WebSocketExtension.parseList("permessage-deflate; client_max_window_bits, x-webkit")
/// offered[0].name                          // "permessage-deflate"
/// offered[0].parameters[0].value           // nil
/// WebSocketExtension.headerValue(offered)  // "permessage-deflate; client_max_window_bits, x-webkit"
/// ```
public struct WebSocketExtension: Sendable, Hashable, CustomStringConvertible {
    /// One parameter: a name and an optional value (a quoted value is stored without its quotes).
    public struct Parameter: Sendable, Hashable {
        /// The parameter's name.
        public var name: String
        /// Its value, if it has one.
        public var value: String?

        /// A parameter.
        public init(name: String, value: String? = nil) {
            self.name = name
            self.value = value
        }
    }

    /// The extension's name (a token).
    public var name: String
    /// Its parameters, in order.
    public var parameters: [Parameter]

    /// An extension with parameters.
    public init(name: String, parameters: [Parameter] = []) {
        self.name = name
        self.parameters = parameters
    }

    /// The extension as it is written in the header.
    public var description: String {
        ([name] + parameters.map { parameter in
            guard let value = parameter.value else { return parameter.name }
            return value.utf8.allSatisfy(HeaderTokens.isTokenByte) && !value.isEmpty
                ? "\(parameter.name)=\(value)"
                : "\(parameter.name)=\"\(value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\""))\""
        }).joined(separator: "; ")
    }

    /// A header value listing `extensions`.
    public static func headerValue(_ extensions: [WebSocketExtension]) -> String {
        extensions.map(\.description).joined(separator: ", ")
    }

    /// The extensions a `Sec-WebSocket-Extensions` value lists; throws when the value does not follow the grammar.
    public static func parseList(_ value: String) throws(WebSocketHandshakeError) -> [WebSocketExtension] {
        var scanner = HeaderTokens.Scanner(value)
        var extensions: [WebSocketExtension] = []
        while true {
            scanner.skipSpace()
            if scanner.isAtEnd { break }
            if scanner.skip(",") { continue }
            guard let name = scanner.token() else { throw .malformedExtensions(value) }
            var parsed = WebSocketExtension(name: name)
            scanner.skipSpace()
            while scanner.skip(";") {
                scanner.skipSpace()
                guard let parameterName = scanner.token() else { throw .malformedExtensions(value) }
                scanner.skipSpace()
                var parameterValue: String?
                if scanner.skip("=") {
                    scanner.skipSpace()
                    guard let text = scanner.token() ?? scanner.quotedString() else { throw .malformedExtensions(value) }
                    parameterValue = text
                    scanner.skipSpace()
                }
                parsed.parameters.append(Parameter(name: parameterName, value: parameterValue))
            }
            extensions.append(parsed)
            scanner.skipSpace()
            guard scanner.isAtEnd || scanner.skip(",") else { throw .malformedExtensions(value) }
        }
        return extensions
    }
}

/// HTTP's token and quoted-string grammar (RFC 9110 §5.6), as the handshake's headers use it.
enum HeaderTokens {
    /// tchar: a visible ASCII character that is not a delimiter.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    /// The comma-separated tokens of a list header (`Connection`, `Upgrade`, `Sec-WebSocket-Protocol`), trimmed,
    /// empty elements dropped.
    static func list(_ value: String) -> [String] {
        value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// A cursor over a header value.
    struct Scanner {
        private let bytes: [UInt8]
        private var index = 0

        init(_ text: String) { bytes = Array(text.utf8) }

        var isAtEnd: Bool { index == bytes.count }

        mutating func skipSpace() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
        }

        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }

        mutating func token() -> String? {
            let start = index
            while index < bytes.count, HeaderTokens.isTokenByte(bytes[index]) { index += 1 }
            return index > start ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
        }

        mutating func quotedString() -> String? {
            let start = index
            guard skip("\"") else { return nil }
            var text: [UInt8] = []
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""): return String(decoding: text, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard index < bytes.count else { index = start; return nil }
                    text.append(bytes[index])
                    index += 1
                default: text.append(byte)
                }
            }
            index = start
            return nil
        }
    }
}
