import Foundation
import TapedeckCore

/// The real values of the placeholders ``Redaction`` writes, supplied when a recorded request must reach a real
/// provider again: `tapedeck verify`, a ``RecordMode/newEpisodes`` re-recording, the recording proxy. Filling applies
/// to the request that goes out only; what is recorded keeps its placeholder, and copies of the secrets in the answer
/// are scrubbed before anything is written.
///
/// **Naming rule.** A placeholder is named after the place redaction put it: the header name (`Authorization`,
/// `X-Api-Key`), the query parameter or form field name (`api_key`), the JSON member name (`token`), or
/// `URL_PASSWORD` for the password of a URL's user info. Its *secret name* is that name in upper case with each run of
/// other characters than letters and digits turned into `_`: `X-Api-Key` → `X_API_KEY`. The value comes from
/// ``values`` under the secret name, else from the environment variable `TAPEDECK_SECRET_<secret name>`
/// (`TAPEDECK_SECRET_X_API_KEY`).
///
/// An `Authorization` or `Proxy-Authorization` placeholder keeps its scheme (`Bearer [REDACTED]`), and is first
/// looked up with the scheme appended (`AUTHORIZATION_BEARER`, `AUTHORIZATION_BASIC`), then without. Its value is
/// the token (`TAPEDECK_SECRET_AUTHORIZATION_BEARER=eyJ…`), or the whole header value with its scheme
/// (`Bearer eyJ…`); for `Basic`, `user:password` is base64-encoded for you.
///
/// ``credentials`` add or replace a header on every request to a host, whatever the request carries.
///
/// ```swift
/// var configuration = CassetteConfiguration()
/// configuration.secrets.values["AUTHORIZATION_BEARER"] = ProcessInfo.processInfo.environment["API_TOKEN"]
/// configuration.secrets.credentials = [.bearer(host: "api.example.com", token: token)]
/// let transport = try CassetteTransport(cassette: file, mode: .newEpisodes, upstream: CurlTransport(),
///                                       configuration: configuration)
/// ```
public struct PlaceholderSecrets: Sendable {
    /// The prefix of the environment variables the naming rule reads.
    public static let environmentPrefix = "TAPEDECK_SECRET_"

    /// Secret values by secret name (`AUTHORIZATION_BEARER`, `API_KEY`; any spelling whose secret name is the same
    /// works, e.g. `Authorization` for `AUTHORIZATION`). They come before the environment.
    public var values: [String: String]
    /// Headers added to, or replacing those of, every request to a host.
    public var credentials: [HostCredential]
    /// Whether `TAPEDECK_SECRET_<name>` variables are read for placeholders ``values`` does not fill.
    public var readsEnvironment: Bool
    /// The environment the variables are read from; `nil` reads the process environment when a placeholder needs
    /// it.
    public var environment: [String: String]?

    /// Creates a secret source.
    public init(values: [String: String] = [:], credentials: [HostCredential] = [], readsEnvironment: Bool = true,
                environment: [String: String]? = nil) {
        self.values = values
        self.credentials = credentials
        self.readsEnvironment = readsEnvironment
        self.environment = environment
    }

    /// Fills nothing and adds nothing: requests go out exactly as given.
    public static let none = PlaceholderSecrets(readsEnvironment: false)

    /// The secret name of a placeholder named `name`: upper case, each run of other characters than ASCII letters
    /// and digits turned into one `_`, none at either end (`X-Api-Key` → `X_API_KEY`).
    public static func secretName(_ name: String) -> String {
        var result = ""
        var pendingSeparator = false
        for byte in name.utf8 {
            guard byte.isASCIIAlphanumeric else {
                pendingSeparator = !result.isEmpty
                continue
            }
            if pendingSeparator { result.append("_") }
            pendingSeparator = false
            result.append(Character(Unicode.Scalar(byte >= 0x61 ? byte - 0x20 : byte)))
        }
        return result
    }

    /// The environment variable the naming rule reads for secret name `name`.
    public static func variable(for name: String) -> String { environmentPrefix + secretName(name) }

    /// The value for the first of `names` (secret names) that has one, from ``values`` then the environment.
    func value(for names: [String]) -> String? {
        for name in names {
            if let value = values.first(where: { Self.secretName($0.key) == name })?.value { return value }
        }
        guard readsEnvironment else { return nil }
        let environment = self.environment ?? ProcessInfo.processInfo.environment
        for name in names {
            if let value = environment[Self.environmentPrefix + name] { return value }
        }
        return nil
    }

    /// Whether filling can change anything: some credential, or some source of values.
    var isEmpty: Bool { credentials.isEmpty && values.isEmpty && !readsEnvironment }
}

/// A header sent with every request to a host, e.g. a token for `tapedeck verify --bearer-env`.
///
/// ```swift
/// HostCredential.bearer(host: "api.example.com", token: token)
/// HostCredential(host: "*.example.com", header: "X-Api-Key", value: key)
/// ```
public struct HostCredential: Sendable, Hashable {
    /// The host: a name, `*.example.com` for its subdomains, or `*` for every host. Case is ignored.
    public var host: String
    /// The header name.
    public var header: String
    /// The header value.
    public var value: String

    /// Creates a credential.
    public init(host: String, header: String, value: String) {
        self.host = host
        self.header = header
        self.value = value
    }

    /// `Authorization: Bearer <token>` for `host`.
    public static func bearer(host: String, token: String) -> HostCredential {
        HostCredential(host: host, header: "Authorization", value: "Bearer " + token)
    }

    /// Whether the credential applies to a request for `url`.
    public func applies(to url: URL) -> Bool {
        let pattern = host.lowercased()
        return pattern == "*" || HostRules.matches(HostRules.bareHost(url.host ?? ""), [HostRules.bareHost(pattern)])
    }

    /// The secret texts the value carries (the whole value and, after a scheme word, the token), for scrubbing.
    var secretTexts: [String] {
        var texts: [String] = []
        Redaction.addSecret(value, to: &texts, minimumLength: Redaction.minimumKnownSecretLength)
        if let space = value.firstIndex(of: " ") { Redaction.addSecret(value[value.index(after: space)...], to: &texts, minimumLength: Redaction.minimumKnownSecretLength) }
        return texts
    }
}
