import Foundation
import Testing
import TapedeckCassette

/// ``PlaceholderSecrets``: the naming rule and filling placeholders into requests, without I/O.
@Suite struct PlaceholderSecretsTests {
    static func request(_ url: String, headers: HTTPHeaders = [:], body: String? = nil) -> HTTPRequest {
        var request = HTTPRequest(url: URL(string: url)!)
        request.headers = headers
        if let body { request.body = .data(Data(body.utf8)) }
        return request
    }

    static func bodyText(_ request: HTTPRequest) -> String? {
        if case .data(let data) = request.body { return String(decoding: data, as: UTF8.self) }
        return nil
    }

    @Test func secretNamesFollowTheNamingRule() {
        #expect(PlaceholderSecrets.secretName("Authorization") == "AUTHORIZATION")
        #expect(PlaceholderSecrets.secretName("X-Api-Key") == "X_API_KEY")
        #expect(PlaceholderSecrets.secretName("access_token") == "ACCESS_TOKEN")
        #expect(PlaceholderSecrets.secretName("--weird..name--") == "WEIRD_NAME")
        #expect(PlaceholderSecrets.variable(for: "x-api-key") == "TAPEDECK_SECRET_X_API_KEY")
    }

    @Test func fillsABearerPlaceholderByItsSchemeQualifiedNameFirst() {
        let secrets = PlaceholderSecrets(values: ["Authorization": "plain-token", "authorization-bearer": "bearer-token"],
                                         readsEnvironment: false)
        let fill = secrets.fill(Self.request("https://api.example.com/me", headers: ["Authorization": "Bearer [REDACTED]"]))
        #expect(fill.request.headers["Authorization"] == "Bearer bearer-token")
        #expect(fill.filled.map(\.secretNames) == [["AUTHORIZATION_BEARER", "AUTHORIZATION"]])
        #expect(fill.missing.isEmpty)
        #expect(fill.secrets.contains("bearer-token"))
    }

    @Test func basicCredentialsAreEncodedAndAWholeValueIsKept() {
        let encoded = PlaceholderSecrets(environment: ["TAPEDECK_SECRET_AUTHORIZATION_BASIC": "u:p"])
            .fill(Self.request("http://127.0.0.1/basic-auth/u/p", headers: ["Authorization": "Basic [REDACTED]"]))
        #expect(encoded.request.headers["Authorization"] == "Basic dTpw")
        #expect(encoded.masking("sent Basic dTpw and u:p") == "sent Basic [REDACTED] and u:p")
        let whole = PlaceholderSecrets(environment: ["TAPEDECK_SECRET_AUTHORIZATION": "basic dTpw"])
            .fill(Self.request("http://127.0.0.1/", headers: ["Authorization": "Basic [REDACTED]"]))
        #expect(whole.request.headers["Authorization"] == "basic dTpw")
    }

    @Test func fillsQueryParametersJSONMembersFormFieldsAndTheURLPassword() throws {
        let secrets = PlaceholderSecrets(values: ["API_KEY": "k/1 2", "TOKEN": "tok-9", "PASSWORD": "pw!", "URL_PASSWORD": "p@ss"],
                                         readsEnvironment: false)
        let query = secrets.fill(Self.request("https://user:%5BREDACTED%5D@api.example.com/items?page=2&api_key=%5BREDACTED%5D"))
        #expect(query.request.url.absoluteString == "https://user:p%40ss@api.example.com/items?page=2&api_key=k%2F1%202")
        #expect(Set(query.filled.map(\.description)) == ["query parameter api_key", "URL password"])

        let json = secrets.fill(Self.request("https://api.example.com/login", headers: ["Content-Length": "50"],
                                             body: #"{"user":{"name":"ada","token":"[REDACTED]"},"n":1}"#))
        #expect(Self.bodyText(json.request) == #"{"user":{"name":"ada","token":"tok-9"},"n":1}"#)
        #expect(json.request.headers["Content-Length"] == "45")

        let form = secrets.fill(Self.request("https://api.example.com/login",
                                             headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                             body: "user=ada&password=%5BREDACTED%5D"))
        #expect(Self.bodyText(form.request) == "user=ada&password=pw%21")
        #expect(form.filled.map(\.description) == ["form field password"])
    }

    @Test func aPlaceholderWithNoValueIsNamedWithHowToSupplyIt() {
        let fill = PlaceholderSecrets(environment: [:])
            .fill(Self.request("http://127.0.0.1/basic-auth/u/p", headers: ["Authorization": "Basic [REDACTED]", "X-Api-Key": "[REDACTED]"]))
        #expect(fill.request.headers["Authorization"] == "Basic [REDACTED]")
        #expect(fill.missing.map(\.description) == ["header Authorization", "header X-Api-Key"])
        #expect(fill.missing[0].howToSupply == "set TAPEDECK_SECRET_AUTHORIZATION_BASIC or TAPEDECK_SECRET_AUTHORIZATION")
        #expect(fill.missing[1].howToSupply == "set TAPEDECK_SECRET_X_API_KEY")
    }

    @Test func credentialsApplyToTheirHostsOnly() {
        let secrets = PlaceholderSecrets(credentials: [
            .bearer(host: "api.example.com", token: "t-api"),
            HostCredential(host: "*.internal.test", header: "X-Tenant", value: "tenant-7"),
        ], readsEnvironment: false)
        let api = secrets.fill(Self.request("https://API.example.com/x", headers: ["Authorization": "Bearer dummy"]))
        #expect(api.request.headers["Authorization"] == "Bearer t-api")
        #expect(api.request.headers["X-Tenant"] == nil)
        #expect(api.masking("echo: t-api") == "echo: [REDACTED]")
        let billing = secrets.fill(Self.request("http://billing.internal.test/"))
        #expect(billing.request.headers["X-Tenant"] == "tenant-7")
        #expect(billing.request.headers["Authorization"] == nil)
        let elsewhere = secrets.fill(Self.request("http://127.0.0.1/"))
        #expect(elsewhere.request.headers.isEmpty && elsewhere.secrets.isEmpty)
        let everywhere = PlaceholderSecrets(credentials: [.bearer(host: "*", token: "all-hosts")], readsEnvironment: false)
        #expect(everywhere.fill(Self.request("http://127.0.0.1/")).request.headers["Authorization"] == "Bearer all-hosts")
    }

    @Test func aRequestWithoutPlaceholdersGoesOutUnchanged() {
        let original = Self.request("https://api.example.com/p?q=1", headers: ["Accept": "*/*"], body: #"{"a":"REDACTED text"}"#)
        let fill = PlaceholderSecrets(environment: ["TAPEDECK_SECRET_A": "x"]).fill(original)
        #expect(fill.request.url == original.url)
        #expect(fill.request.headers == original.headers)
        #expect(Self.bodyText(fill.request) == #"{"a":"REDACTED text"}"#)
        #expect(fill.filled.isEmpty && fill.missing.isEmpty && fill.secrets.isEmpty)
        #expect(PlaceholderSecrets.none.fill(Self.request("http://h/", headers: ["Authorization": "Bearer [REDACTED]"])).missing.isEmpty)
    }
}
