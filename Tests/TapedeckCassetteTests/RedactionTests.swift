import Foundation
import Testing
import TapedeckCassette

@Suite struct RedactionTests {
    static let secrets = ["s3cr3t-bearer", "cookie-value-42", "q-token-99", "pw-hunter2", "json-token-77", "set-cookie-abc", "apikey-555", "userpass-1"]

    func secretInteraction() -> Interaction {
        Interaction(
            request: .init(
                method: "POST",
                url: "https://user:userpass-1@api.test/login?token=q-token-99&page=2&api_key=apikey-555",
                headers: ["Authorization": "Bearer s3cr3t-bearer", "Cookie": "sid=cookie-value-42", "X-Api-Key": "apikey-555",
                          "Content-Type": "application/json", "Accept": "application/json"],
                body: CassetteBody(Data(#"{"user":"ann","password":"pw-hunter2","nested":{"access_token":"json-token-77"}}"#.utf8))),
            outcome: .response(.init(statusCode: 200, headers: ["Set-Cookie": "sid=set-cookie-abc; HttpOnly", "Content-Type": "application/json"],
                                     body: CassetteBody(Data(#"{"token":"json-token-77","ok":true}"#.utf8)))))
    }

    @Test func defaultsRemoveEverySecretBeforeEncoding() {
        var recorded = secretInteraction()
        Redaction.default.redact(&recorded)
        let text = String(decoding: CassetteCodec.encode(Cassette(interactions: [recorded])), as: UTF8.self)
        for secret in Self.secrets { #expect(!text.contains(secret), "\(secret) leaked") }
        #expect(recorded.request.headers["Authorization"] == "Bearer [REDACTED]")
        #expect(recorded.request.headers["Accept"] == "application/json")
        #expect(recorded.request.url == "https://user:%5BREDACTED%5D@api.test/login?token=%5BREDACTED%5D&page=2&api_key=%5BREDACTED%5D")
        #expect(String(decoding: recorded.request.body.inlineData ?? Data(), as: UTF8.self)
            == #"{"user":"ann","password":"[REDACTED]","nested":{"access_token":"[REDACTED]"}}"#)
    }

    @Test func placeholdersStillMatchOnReplay() {
        var recorded = secretInteraction()
        Redaction.default.redact(&recorded)
        var player = CassettePlayer(cassette: Cassette(interactions: [recorded]), matching: [.method, .url, .headers("Authorization"), .json()])
        var request = secretInteraction().request
        request.url = request.url.replacingOccurrences(of: "q-token-99", with: "a-different-token")
        request.headers["Authorization"] = "Bearer another-token"
        guard case .success = player.play(request) else {
            Issue.record("a live request with other secrets must match the redacted recording")
            return
        }
    }

    @Test func customFilters() throws {
        var redaction = Redaction.default
        redaction.filters = [
            .header("X-Session", replacement: "<session>"),
            .queryParameter("sid"),
            .jsonPath("account.iban"),
            try .regex(#"acct-\d+"#, replacement: "acct-0000"),
            .interaction { $0.outcome = .response(.init(statusCode: 299)) },
        ]
        var recorded = Interaction(
            request: .init(method: "POST", url: "http://h/acct-123?sid=abc&x=1", headers: ["X-Session": "xyz", "Content-Type": "application/json"],
                           body: CassetteBody(Data(#"{"account":{"iban":"DE00123","name":"acct-9"}}"#.utf8))),
            outcome: .response(.init(statusCode: 200)))
        redaction.redact(&recorded)
        #expect(recorded.request.url == "http://h/acct-0000?sid=%5BREDACTED%5D&x=1")
        #expect(recorded.request.headers["X-Session"] == "<session>")
        #expect(String(decoding: recorded.request.body.inlineData ?? Data(), as: UTF8.self) == #"{"account":{"iban":"[REDACTED]","name":"acct-0000"}}"#)
        #expect(recorded.response?.statusCode == 299)
    }

    @Test func formBodiesAndDisabledRedaction() {
        var form = Interaction(
            request: .init(method: "POST", url: "http://h/f", headers: ["Content-Type": "application/x-www-form-urlencoded", "Content-Length": "29"],
                           body: CassetteBody(Data("user=ann&password=pw-hunter2".utf8))),
            outcome: .response(.init(statusCode: 200)))
        var untouched = form
        Redaction.default.redact(&form)
        #expect(String(decoding: form.request.body.inlineData ?? Data(), as: UTF8.self) == "user=ann&password=%5BREDACTED%5D")
        Redaction.disabled.redact(&untouched)
        #expect(String(decoding: untouched.request.body.inlineData ?? Data(), as: UTF8.self) == "user=ann&password=pw-hunter2")
    }
}

@Suite struct SensitiveNameTests {
    @Test func namesMatchWhateverTheirCase() {
        let redaction = Redaction.default
        for name in ["Authorization", "AUTHORIZATION", "authorization", "Set-Cookie", "x-API-key"] {
            #expect(redaction.isSensitiveHeader(name), "\(name)")
        }
        for name in ["Content-Type", "Accept", "Date", "", "Authorizatio", "Authorization2"] {
            #expect(!redaction.isSensitiveHeader(name), "\(name)")
        }
        #expect(redaction.isSensitiveParameter("Password"))
        #expect(!redaction.isSensitiveParameter("page"))
    }

    @Test func fragmentsMatchAnywhereInTheName() {
        let redaction = Redaction.default
        for name in ["X-Refresh-Token", "myTOKEN", "clientSecretValue", "db_password_hash", "X-Signature", "AWS-Credential", "tok-api-key"] {
            #expect(redaction.isSensitiveHeader(name), "\(name)")
            #expect(redaction.isSensitiveParameter(name), "\(name)")
        }
        for name in ["tokens-are-not-here".replacingOccurrences(of: "token", with: "tok"), "sec", "pass", "api", "a"] {
            #expect(!redaction.isSensitiveParameter(name), "\(name)")
        }
    }

    @Test func nonASCIINamesAreLowercasedFirst() {
        let redaction = Redaction.default
        #expect(redaction.isSensitiveParameter("Ünïcode-TOKEN"))
        #expect(redaction.isSensitiveParameter("pässword-secret"))
        #expect(!redaction.isSensitiveParameter("Ünïcode"))
    }

    @Test func editedListsTakeEffect() {
        var redaction = Redaction.default
        #expect(!redaction.isSensitiveHeader("X-Tenant"))
        redaction.headerNames.insert("x-tenant")
        redaction.sensitiveFragments.append("pin")
        #expect(redaction.isSensitiveHeader("X-TENANT"))
        #expect(redaction.isSensitiveParameter("card_PIN"))
        redaction.parameterNames = []
        redaction.sensitiveFragments = []
        #expect(!redaction.isSensitiveParameter("password"))
        #expect(Redaction(redactsDefaults: false).isSensitiveHeader("Authorization") == false)
    }

    @Test func jsonMembersNamedLikeHeadersOrParametersAreRedacted() {
        var recorded = interaction("POST", "http://h/j", headers: ["Content-Type": "application/json"],
                                   body: #"{"Cookie":"c-1234","key":"k-5678","keep":"v","list":[{"X-Auth-Token":"t-9999"}],"nothing":null}"#)
        Redaction.default.redact(&recorded)
        #expect(String(decoding: recorded.request.body.inlineData ?? Data(), as: UTF8.self)
            == #"{"Cookie":"[REDACTED]","key":"[REDACTED]","keep":"v","list":[{"X-Auth-Token":"[REDACTED]"}],"nothing":null}"#)
    }
}
