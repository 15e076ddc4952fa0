import Foundation
import TapedeckCassette

/// The secret options of `tapedeck verify` and `tapedeck record`, turned into `PlaceholderSecrets`: pure logic,
/// given the environment and the secrets file's text. No message ever holds a secret value.
///
/// - `--secret NAME=ENV_VAR`: the placeholder whose secret name is `NAME` (`AUTHORIZATION_BEARER`, `API_KEY`, any
///   spelling with the same secret name) takes the value of the environment variable `ENV_VAR`.
/// - `--secrets-file FILE`: lines `NAME=value` (a `TAPEDECK_SECRET_` prefix on the name is allowed; `#` comments and
///   blank lines are skipped; a value may be wrapped in single or double quotes).
/// - `--header-env HOST:Header-Name=ENV_VAR`: that header, valued from `ENV_VAR`, on every request to `HOST`.
/// - `--bearer-env HOST=ENV_VAR`: `Authorization: Bearer $ENV_VAR` on every request to `HOST`.
///
/// `HOST` is a host name, `*.example.com`, or `*` for every host. `--secret` wins over the file, which wins over
/// `TAPEDECK_SECRET_<NAME>` variables.
///
/// ```swift
/// var arguments = SecretArguments()
/// arguments.secrets = ["AUTHORIZATION_BASIC=BASIC_CREDENTIALS"]
/// let secrets = try arguments.resolve(environment: ProcessInfo.processInfo.environment)
/// ```
public struct SecretArguments: Sendable {
    /// `NAME=ENV_VAR` items.
    public var secrets: [String] = []
    /// The secrets file's path and text, when one was given.
    public var secretsFile: (path: String, text: String)?
    /// `HOST:Header-Name=ENV_VAR` items.
    public var headerEnv: [String] = []
    /// `HOST=ENV_VAR` items.
    public var bearerEnv: [String] = []

    /// Creates empty arguments.
    public init() {}

    /// What went wrong, naming the option or the file and line (never the value).
    public struct Problem: Error, CustomStringConvertible, Equatable {
        /// The message.
        public let description: String
    }

    /// The secret source these arguments describe, reading `environment` for the variables they name and for the
    /// naming rule.
    public func resolve(environment: [String: String]) throws(Problem) -> PlaceholderSecrets {
        var values: [String: String] = [:]
        if let secretsFile { values = try Self.parseSecretsFile(secretsFile.text, path: secretsFile.path) }
        for item in secrets {
            let (name, variable) = try Self.split(item, at: "=", option: "--secret", expected: "NAME=ENV_VAR")
            values[PlaceholderSecrets.secretName(name)] = try Self.read(variable, option: "--secret \(item)", environment)
        }
        var credentials: [HostCredential] = []
        for item in headerEnv {
            let (target, variable) = try Self.split(item, at: "=", option: "--header-env", expected: "HOST:Header-Name=ENV_VAR")
            let (host, header) = try Self.split(target, at: ":", option: "--header-env", expected: "HOST:Header-Name=ENV_VAR", shown: item)
            credentials.append(HostCredential(host: host, header: header,
                                              value: try Self.read(variable, option: "--header-env \(item)", environment)))
        }
        for item in bearerEnv {
            let (host, variable) = try Self.split(item, at: "=", option: "--bearer-env", expected: "HOST=ENV_VAR")
            credentials.append(.bearer(host: host, token: try Self.read(variable, option: "--bearer-env \(item)", environment)))
        }
        return PlaceholderSecrets(values: values, credentials: credentials, environment: environment)
    }

    /// `NAME=value` lines by secret name.
    public static func parseSecretsFile(_ text: String, path: String) throws(Problem) -> [String: String] {
        var values: [String: String] = [:]
        var firstLine: [String: Int] = [:]
        // "\r\n" is one Character, a newline like "\n": either line ending counts once.
        for (offset, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let number = offset + 1
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            guard let equals = trimmed.firstIndex(of: "=") else {
                throw Problem(description: "\(path):\(number): expected NAME=value (the line has no '=')")
            }
            var name = trimmed[..<equals].trimmingCharacters(in: .whitespaces)
            if name.hasPrefix(PlaceholderSecrets.environmentPrefix) { name.removeFirst(PlaceholderSecrets.environmentPrefix.count) }
            let secretName = PlaceholderSecrets.secretName(name)
            guard !secretName.isEmpty else { throw Problem(description: "\(path):\(number): the name before '=' is empty") }
            if let first = firstLine[secretName] {
                throw Problem(description: "\(path):\(number): \(secretName) is given twice (first on line \(first))")
            }
            firstLine[secretName] = number
            values[secretName] = unquoted(trimmed[trimmed.index(after: equals)...].trimmingCharacters(in: .whitespaces))
        }
        return values
    }

    private static func unquoted(_ value: String) -> String {
        for quote in ["\"", "'"] where value.count >= 2 && value.hasPrefix(quote) && value.hasSuffix(quote) {
            return String(value.dropFirst().dropLast())
        }
        return value
    }

    /// `item` split at the first `separator` into two non-empty, trimmed parts; an error shows `shown` (the whole
    /// option value) or `item`.
    private static func split(_ item: String, at separator: Character, option: String, expected: String,
                              shown: String? = nil) throws(Problem) -> (String, String) {
        let problem = Problem(description: "\(option) '\(shown ?? item)': expected \(expected)")
        guard let index = item.firstIndex(of: separator) else { throw problem }
        let head = item[..<index].trimmingCharacters(in: .whitespaces)
        let tail = item[item.index(after: index)...].trimmingCharacters(in: .whitespaces)
        guard !head.isEmpty, !tail.isEmpty else { throw problem }
        return (head, tail)
    }

    private static func read(_ variable: String, option: String, _ environment: [String: String]) throws(Problem) -> String {
        guard let value = environment[variable], !value.isEmpty else {
            throw Problem(description: "\(option): the environment variable \(variable) is not set")
        }
        return value
    }
}
