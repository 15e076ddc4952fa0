import Foundation
import Testing
import TapedeckCassette
import TapedeckCLICore

/// `SecretArguments`: the secret options and the secrets file, without processes.
@Suite struct SecretArgumentsTests {
    @Test func aSecretsFileReadsNamesByTheNamingRule() throws {
        let text = "# comment\n\nTAPEDECK_SECRET_API_KEY=\"k 1\"\r\nAuthorization-Bearer = 'tok'\nx-tenant=a=b\n"
        let values = try SecretArguments.parseSecretsFile(text, path: "s.env")
        #expect(values == ["API_KEY": "k 1", "AUTHORIZATION_BEARER": "tok", "X_TENANT": "a=b"])
    }

    @Test(arguments: [
        ("API_KEY=1\nsecret-value-without-equals\n", "s.env:2: expected NAME=value (the line has no '=')"),
        ("API_KEY=1\napi-key=2\n", "s.env:2: API_KEY is given twice (first on line 1)"),
        ("=value\n", "s.env:1: the name before '=' is empty"),
    ])
    func aBrokenSecretsFileNamesTheLineNotTheValue(text: String, message: String) {
        #expect { try SecretArguments.parseSecretsFile(text, path: "s.env") } throws: { "\($0)" == message }
    }

    @Test func optionsResolveInOrderOfPrecedence() throws {
        var arguments = SecretArguments()
        arguments.secretsFile = ("s.env", "API_KEY=from-file\nTOKEN=file-token\n")
        arguments.secrets = ["api_key=KEY_VARIABLE"]
        arguments.headerEnv = ["*.example.com:X-Tenant=TENANT"]
        arguments.bearerEnv = ["api.example.com=BEARER"]
        let environment = ["KEY_VARIABLE": "from-option", "TENANT": "t-1", "BEARER": "b-2", "TAPEDECK_SECRET_TOKEN": "env-token"]
        let secrets = try arguments.resolve(environment: environment)
        var request = HTTPRequest(url: URL(string: "https://api.example.com/x?api_key=%5BREDACTED%5D")!)
        request.body = .data(Data(#"{"token":"[REDACTED]"}"#.utf8))
        let fill = secrets.fill(request)
        #expect(fill.request.url.absoluteString.hasSuffix("/x?api_key=from%2Doption"))
        if case .data(let body) = fill.request.body { #expect(String(decoding: body, as: UTF8.self) == #"{"token":"file-token"}"#) }
        #expect(fill.request.headers["X-Tenant"] == "t-1")
        #expect(fill.request.headers["Authorization"] == "Bearer b-2")
    }

    @Test(arguments: [
        (["--secret", "NOEQUALS"], "--secret 'NOEQUALS': expected NAME=ENV_VAR"),
        (["--secret", "A=MISSING_VARIABLE"], "--secret A=MISSING_VARIABLE: the environment variable MISSING_VARIABLE is not set"),
        (["--header-env", "host=VALUE"], "--header-env 'host=VALUE': expected HOST:Header-Name=ENV_VAR"),
        (["--bearer-env", "=VALUE"], "--bearer-env '=VALUE': expected HOST=ENV_VAR"),
    ])
    func badOptionsAreNamed(option: [String], message: String) {
        var arguments = SecretArguments()
        switch option[0] {
        case "--secret": arguments.secrets = [option[1]]
        case "--header-env": arguments.headerEnv = [option[1]]
        default: arguments.bearerEnv = [option[1]]
        }
        #expect { try arguments.resolve(environment: ["VALUE": "v"]) } throws: { "\($0)" == message }
    }
}
