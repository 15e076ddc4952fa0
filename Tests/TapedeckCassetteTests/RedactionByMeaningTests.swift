import Foundation
import Testing
import TapedeckCassette
import TapedeckTestSupport
import TapedeckCore

/// Redaction by meaning: a listed name is always redacted; a name that only contains a sensitive word is redacted
/// unless the name is on the allow-list or its value cannot be a secret. No false positives, no false negatives.
@Suite struct RedactionByMeaningTests {
    private func redacted(_ interaction: Interaction) -> Interaction {
        var copy = interaction
        Redaction.default.redact(&copy)
        return copy
    }

    private func exchange(url: String, requestHeaders: HTTPHeaders = [:], requestJSON: String = "", responseHeaders: HTTPHeaders = [:],
                          responseJSON: String = "") -> Interaction {
        var sent = requestHeaders
        sent.add(name: "Content-Type", value: "application/json")
        var received = responseHeaders
        received.add(name: "Content-Type", value: "application/json")
        return Interaction(
            request: .init(method: "POST", url: url, headers: sent, body: CassetteBody(Data(requestJSON.utf8))),
            outcome: .response(.init(statusCode: 200, headers: received, body: CassetteBody(Data(responseJSON.utf8)))))
    }

    @Test func wordsInNamesDoNotRedactValuesThatCannotBeSecrets() throws {
        let recorded = redacted(exchange(
            url: "https://api.test/v1/chat?tokens_used=17&reset_token=q1w2e3r4t5y6",
            requestHeaders: ["Authorization": "Bearer abcdef123456", "X-Refresh-Token": "r-9f8e7d6c5b4a"],
            requestJSON: #"{"max_tokens":1024,"has_password":false,"otp_token":123456,"password":"hunter22","client_secret":null}"#,
            responseHeaders: ["Access-Control-Allow-Credentials": "true", "X-RateLimit-Remaining-Tokens": "39000"],
            responseJSON: #"{"token_count":12,"verified":true,"session_token":"s3cr3t-t0k3n-value"}"#))
        let request = recorded.request
        #expect(request.url == "https://api.test/v1/chat?tokens_used=17&reset_token=%5BREDACTED%5D")
        #expect(request.headers["Authorization"] == "Bearer [REDACTED]")
        #expect(request.headers["X-Refresh-Token"] == "[REDACTED]")
        let sent = try #require(request.body.inlineData.flatMap { try JSONSerialization.jsonObject(with: $0) as? [String: Any] })
        #expect(sent["max_tokens"] as? Int == 1024, "a count under a count-like name is kept")
        #expect(sent["has_password"] as? Bool == false, "a boolean is kept")
        #expect(sent["otp_token"] as? String == "[REDACTED]", "a numeric code under any other name is redacted")
        #expect(sent["password"] as? String == "[REDACTED]")
        #expect(sent["client_secret"] is NSNull)
        let response = try #require(recorded.response)
        #expect(response.headers["Access-Control-Allow-Credentials"] == "true")
        #expect(response.headers["X-RateLimit-Remaining-Tokens"] == "39000")
        let answered = try #require(response.body.inlineData.flatMap { try JSONSerialization.jsonObject(with: $0) as? [String: Any] })
        #expect(answered["token_count"] as? Int == 12)
        #expect(answered["verified"] as? Bool == true)
        #expect(answered["session_token"] as? String == "[REDACTED]")
    }

    @Test func theAllowListIsConfigurable() {
        var redaction = Redaction()
        redaction.allowedNames.insert("x-token-kind")
        #expect(!redaction.isSensitiveHeader("X-Token-Kind", value: "opaque-value-123"))
        #expect(Redaction().isSensitiveHeader("X-Token-Kind", value: "opaque-value-123"))
        #expect(redaction.isSensitiveHeader("Authorization", value: "true"), "a listed name is redacted whatever its value")
    }

    /// Planted secrets under sensitive names anywhere in an interaction never survive; benign look-alikes always do.
    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func plantedSecretsGoAndLookAlikesStay(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let secretNames = ["api_key", "access_token", "x-session-token", "client_secret", "password", "db_credential", "signature"]
        let benignNames = ["has_token", "token_count", "max_tokens", "uses_password", "secret_santa_enabled", "credential_count"]
        for round in 0..<40 {
            var secrets: [String] = []
            var benign: [(name: String, value: String)] = []
            var query: [String] = []
            var json: [String] = []
            var headers: HTTPHeaders = [:]
            for slot in 0..<6 {
                let secret = "s\(round)x\(slot)" + String(random.next() % 1_000_000_000_000, radix: 36) + "Q9z"
                let name = secretNames[Int(random.next() % UInt64(secretNames.count))]
                secrets.append(secret)
                switch random.next() % 3 {
                case 0: query.append("\(name)=\(secret)")
                case 1: json.append("\"\(name)_\(slot)\":\"\(secret)\"")
                default: headers.add(name: "X-\(name)-\(slot)", value: secret)
                }
                let benignName = benignNames[Int(random.next() % UInt64(benignNames.count))] + "_\(slot)"
                let value = benignName.hasPrefix("has") || benignName.hasPrefix("uses") || benignName.hasPrefix("secret_santa")
                    ? (random.next() % 2 == 0 ? "true" : "false") : String(random.next() % 100_000)
                benign.append((benignName, value))
                json.append("\"\(benignName)\":\(value)")
            }
            let interaction = exchange(url: "https://api.test/x?" + query.joined(separator: "&"), requestHeaders: headers,
                                       requestJSON: "{" + json.joined(separator: ",") + "}",
                                       responseJSON: #"{"echo":""# + secrets.joined(separator: " ") + #""}"#)
            var scrubbed = interaction
            Redaction.default.redact(&scrubbed)
            let text = String(decoding: CassetteCodec.encode(Cassette(interactions: [scrubbed])), as: UTF8.self)
            for secret in secrets { #expect(!text.contains(secret), "seed \(seed) round \(round): \(secret) survived") }
            let body = try #require(scrubbed.request.body.inlineData.flatMap { try JSONSerialization.jsonObject(with: $0) as? [String: Any] })
            for (name, value) in benign {
                if value == "true" || value == "false" {
                    #expect(body[name] as? Bool == (value == "true"), "seed \(seed) round \(round): \(name) changed")
                } else {
                    #expect(body[name] as? Int == Int(value), "seed \(seed) round \(round): \(name) changed")
                }
            }
        }
    }
}
