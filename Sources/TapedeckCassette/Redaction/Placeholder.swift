/// A redaction placeholder found in a request on its way out, and the names its value is looked up by (see
/// ``PlaceholderSecrets``).
public struct Placeholder: Hashable, Sendable, CustomStringConvertible {
    /// Where in the request the placeholder sits.
    public enum Location: String, Hashable, Sendable {
        /// A header value: `[REDACTED]`, or `Scheme [REDACTED]` for `Authorization`.
        case header = "header"
        /// A query parameter's value.
        case queryParameter = "query parameter"
        /// A field of an `application/x-www-form-urlencoded` body.
        case formField = "form field"
        /// A string member of a JSON body, at any depth.
        case jsonMember = "JSON member"
        /// The password of the URL's user info.
        case urlPassword = "URL password"
    }

    /// Where it sits.
    public var location: Location
    /// The header, parameter, field or member name, as the request spells it.
    public var name: String
    /// The secret names tried, in order (`AUTHORIZATION_BASIC`, then `AUTHORIZATION`).
    public var secretNames: [String]

    /// Creates a placeholder description.
    public init(location: Location, name: String, secretNames: [String]) {
        self.location = location
        self.name = name
        self.secretNames = secretNames
    }

    /// The environment variables the naming rule reads for it, in order.
    public var variables: [String] { secretNames.map { PlaceholderSecrets.environmentPrefix + $0 } }

    /// `header Authorization`, `query parameter api_key`, …
    public var description: String {
        location == .urlPassword ? location.rawValue : "\(location.rawValue) \(name)"
    }

    /// How to supply it, e.g. `set TAPEDECK_SECRET_AUTHORIZATION_BASIC or TAPEDECK_SECRET_AUTHORIZATION`.
    public var howToSupply: String {
        "set " + variables.joined(separator: " or ")
    }
}

/// A request with its placeholders filled and its host credentials added, and what could not be filled.
public struct SecretFill: Sendable {
    /// The request to send.
    public var request: HTTPRequest
    /// The placeholders that were filled.
    public var filled: [Placeholder]
    /// The placeholders no value was found for; they go out as written.
    public var missing: [Placeholder]
    /// The secret texts put into the request (longest first), for scrubbing and masking.
    public var secrets: [String]

    /// `text` with every secret put into the request replaced by the redaction placeholder (as written,
    /// percent-encoded, or JSON-escaped), for reports and error messages.
    public func masking(_ text: String) -> String {
        secrets.isEmpty ? text : Redaction.default.scrub(text, secrets: secrets)
    }
}
