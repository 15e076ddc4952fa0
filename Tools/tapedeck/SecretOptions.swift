import ArgumentParser
import Foundation
import TapedeckCassette
import TapedeckCLICore

/// `--secret`, `--secrets-file`, `--header-env` and `--bearer-env`, shared by `verify` and `record`: the values of
/// redaction placeholders and per-host credentials, never printed.
struct SecretOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Fill the placeholder with this secret name from an environment variable, NAME=ENV_VAR (repeatable).",
        discussion: "A placeholder's secret name is where redaction put it, upper-cased with other characters than letters and digits as '_': header Authorization → AUTHORIZATION (tried first with its scheme: AUTHORIZATION_BEARER, AUTHORIZATION_BASIC), X-Api-Key → X_API_KEY, query parameter or JSON member api_key → API_KEY, a URL's password → URL_PASSWORD. A placeholder no option fills reads the environment variable TAPEDECK_SECRET_<NAME>."))
    var secret: [String] = []

    @Option(name: .customLong("secrets-file"), help: "Read NAME=value lines (# comments allowed) for placeholders.")
    var secretsFile: String?

    @Option(name: .customLong("header-env"), help: "Send this header, valued from an environment variable, to a host: HOST:Header-Name=ENV_VAR; HOST may be *.example.com or * (repeatable).")
    var headerEnv: [String] = []

    @Option(name: .customLong("bearer-env"), help: "Send 'Authorization: Bearer $ENV_VAR' to a host: HOST=ENV_VAR; HOST may be *.example.com or * (repeatable).")
    var bearerEnv: [String] = []

    /// The secret source, reading the process environment and the secrets file.
    func resolve() throws -> PlaceholderSecrets {
        var arguments = SecretArguments()
        arguments.secrets = secret
        arguments.headerEnv = headerEnv
        arguments.bearerEnv = bearerEnv
        if let secretsFile {
            do {
                arguments.secretsFile = (secretsFile, try String(contentsOfFile: secretsFile, encoding: .utf8))
            } catch {
                throw CLIError("could not read the secrets file \(secretsFile): \(error.localizedDescription)")
            }
        }
        do { return try arguments.resolve(environment: ProcessInfo.processInfo.environment) } catch {
            throw CLIError(error.description)
        }
    }

    /// How to supply a placeholder no value was found for, for reports.
    static func hint(_ placeholder: Placeholder) -> String {
        "secret: the \(placeholder) holds a redaction placeholder with no value: \(placeholder.howToSupply), "
            + "or pass --secret \(placeholder.secretNames[0])=ENV_VAR or a --secrets-file line \(placeholder.secretNames[0])=…"
    }
}
