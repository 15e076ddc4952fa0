import Foundation
import TapedeckCore

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
            return "\(parameter.name)=" + (HTTPFieldSyntax.isToken(value) ? value : HTTPFieldSyntax.quoted(value))
        }).joined(separator: "; ")
    }

    /// A header value listing `extensions`.
    public static func headerValue(_ extensions: [WebSocketExtension]) -> String {
        extensions.map(\.description).joined(separator: ", ")
    }

    /// The extensions a `Sec-WebSocket-Extensions` value lists; throws when the value does not follow the grammar.
    public static func parseList(_ value: String) throws(WebSocketHandshakeError) -> [WebSocketExtension] {
        var scanner = HTTPFieldSyntax.Scanner(value)
        var extensions: [WebSocketExtension] = []
        while true {
            scanner.skipWhitespace()
            if scanner.isAtEnd { break }
            if scanner.skip(",") { continue }
            guard let name = scanner.token() else { throw .malformedExtensions(value) }
            var parsed = WebSocketExtension(name: name)
            scanner.skipWhitespace()
            while scanner.skip(";") {
                scanner.skipWhitespace()
                guard let parameterName = scanner.token() else { throw .malformedExtensions(value) }
                scanner.skipWhitespace()
                var parameterValue: String?
                if scanner.skip("=") {
                    scanner.skipWhitespace()
                    guard let text = scanner.token() ?? scanner.quotedString() else { throw .malformedExtensions(value) }
                    parameterValue = text
                    scanner.skipWhitespace()
                }
                parsed.parameters.append(Parameter(name: parameterName, value: parameterValue))
            }
            extensions.append(parsed)
            scanner.skipWhitespace()
            guard scanner.isAtEnd || scanner.skip(",") else { throw .malformedExtensions(value) }
        }
        return extensions
    }
}
