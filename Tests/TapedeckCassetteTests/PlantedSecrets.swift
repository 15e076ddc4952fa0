import Foundation
import TapedeckCassette
import TapedeckTestSupport
import TapedeckCore

/// Generated interactions with planted secrets and benign look-alikes, for the property tests of redaction across a
/// cassette: each secret is learned in one place of one interaction (a bearer header, a cookie a response sets, a
/// token member of a response, a secret query parameter, form field or JSON member, a token response header) and
/// copied into another place of another interaction, before or after it (a URL path segment or query, a request or
/// response header, a JSON, form or text body).
struct PlantedSecrets {
    /// What one generated interaction holds.
    struct Exchange {
        var path: [String]
        var query: [String] = ["tokens_used=17"]
        var requestHeaders: HTTPHeaders = ["X-Requested-With": "XMLHttpRequest"]
        var requestForm: Bool
        var requestMembers: [String] = [#""max_tokens":1024"#, #""has_password":false"#]
        var responseHeaders: HTTPHeaders = ["Access-Control-Allow-Credentials": "true", "X-RateLimit-Remaining-Tokens": "39000"]
        var responseText: Bool
        var responseMembers: [String] = [#""token_type":"bearer""#, #""expires_in":3600"#]
        /// Text bodies padded past this many bytes (to go to a sidecar file when recorded with a small threshold).
        var padding = 0

        var interaction: Interaction {
            var requestHeaders = requestHeaders
            requestHeaders.add(name: "Content-Type", value: requestForm ? "application/x-www-form-urlencoded" : "application/json")
            let requestBody = requestForm
                ? requestMembers.map { PlantedSecrets.formPair($0) }.joined(separator: "&")
                : "{" + requestMembers.joined(separator: ",") + "}"
            var responseHeaders = responseHeaders
            responseHeaders.add(name: "Content-Type", value: responseText ? "text/plain" : "application/json")
            let responseBody = responseText
                ? responseMembers.joined(separator: "\n") + String(repeating: ".", count: padding)
                : "{" + responseMembers.joined(separator: ",") + "}"
            return Interaction(
                request: .init(method: "POST", url: "https://api.test/" + path.joined(separator: "/") + "?" + query.joined(separator: "&"),
                               headers: requestHeaders, body: CassetteBody(Data(requestBody.utf8))),
                outcome: .response(.init(statusCode: 200, headers: responseHeaders, body: CassetteBody(Data(responseBody.utf8)))))
        }
    }

    var exchanges: [Exchange]
    var secrets: [String] = []
    /// Where each secret was learned and copied, for failure messages.
    var plan: [String] = []

    /// `count` exchanges with `secretCount` planted secrets, from `random`.
    init(count: Int, secretCount: Int, random: inout SplitMix64) {
        exchanges = (0..<count).map { index in
            Exchange(path: ["v1", "r\(index)"], requestForm: random.next() % 3 == 0, responseText: random.next() % 3 == 0)
        }
        for number in 0..<secretCount {
            let secret = "sk\(number)" + String(random.next() % 1_000_000_000_000, radix: 36) + "_Zq9-" + String(random.next() % 46_656, radix: 36)
            let source = Int(random.next() % UInt64(count)), copy = Int(random.next() % UInt64(count))
            let learned = learn(secret, in: source, how: random.next() % 6)
            let copied = place(secret, in: copy, how: random.next() % 6)
            secrets.append(secret)
            plan.append("\(secret): learned from #\(source) \(learned), copied into #\(copy) \(copied)")
        }
    }

    private mutating func learn(_ secret: String, in index: Int, how: UInt64) -> String {
        switch how {
        case 0:
            exchanges[index].requestHeaders.add(name: "Authorization", value: "Bearer \(secret)")
            return "Authorization header"
        case 1:
            exchanges[index].responseHeaders.add(name: "Set-Cookie", value: "sid=\(secret); Path=/; HttpOnly")
            return "Set-Cookie"
        case 2 where !exchanges[index].responseText:
            exchanges[index].responseMembers.append(#""access_token":"\#(secret)""#)
            return "response JSON access_token"
        case 3:
            exchanges[index].query.append("api_key=\(secret)")
            return "query api_key"
        case 4:
            exchanges[index].requestMembers.append(exchanges[index].requestForm ? #""password":"\#(secret)""# : #""client_secret":"\#(secret)""#)
            return "request body secret field"
        default:
            exchanges[index].responseHeaders.add(name: "X-Auth-Token", value: secret)
            return "X-Auth-Token response header"
        }
    }

    private mutating func place(_ secret: String, in index: Int, how: UInt64) -> String {
        switch how {
        case 0:
            exchanges[index].path.append(secret)
            return "URL path"
        case 1:
            exchanges[index].query.append("q=\(secret)")
            return "URL query q"
        case 2:
            exchanges[index].requestHeaders.add(name: "X-Echo", value: "seen \(secret) here")
            return "request header X-Echo"
        case 3:
            exchanges[index].requestMembers.append(#""note":"seen \#(secret) here""#)
            return "request body note"
        case 4:
            exchanges[index].responseHeaders.add(name: "X-Echo", value: secret)
            return "response header X-Echo"
        default:
            exchanges[index].responseMembers.append(exchanges[index].responseText ? "seen \(secret) here" : #""echo":"seen \#(secret) here""#)
            return "response body"
        }
    }

    /// A JSON member written as a form pair (`"name":value` → `name=value`, strings unquoted and percent-encoded).
    static func formPair(_ member: String) -> String {
        let pieces = member.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
        return pieces[0] + "=" + (pieces[1].addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? pieces[1])
    }

    /// The secrets (as written or percent-encoded) found in `text`.
    func survivors(in text: String) -> [String] {
        secrets.filter { secret in
            text.contains(secret) || text.contains(secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? secret)
        }
    }

    /// The benign look-alikes changed in `interaction` (all are planted in every exchange), as `part name`.
    static func changedLookAlikes(in interaction: Interaction) -> [String] {
        var changed: [String] = []
        if !interaction.request.url.contains("tokens_used=17") { changed.append("query tokens_used") }
        if interaction.request.headers["X-Requested-With"] != "XMLHttpRequest" { changed.append("request X-Requested-With") }
        let body = String(decoding: interaction.request.body.inlineData ?? Data(), as: UTF8.self)
        if !(body.contains(#""max_tokens":1024"#) || body.contains("max_tokens=1024")) { changed.append("request max_tokens") }
        if !(body.contains(#""has_password":false"#) || body.contains("has_password=false")) { changed.append("request has_password") }
        guard let response = interaction.response else { return changed + ["response"] }
        if response.headers["Access-Control-Allow-Credentials"] != "true" { changed.append("Access-Control-Allow-Credentials") }
        if response.headers["X-RateLimit-Remaining-Tokens"] != "39000" { changed.append("X-RateLimit-Remaining-Tokens") }
        if let data = response.body.inlineData, let text = String(data: data, encoding: .utf8),
           response.headers["Content-Type"] == "application/json" {
            if !text.contains(#""token_type":"bearer""#) { changed.append("token_type") }
            if !text.contains(#""expires_in":3600"#) { changed.append("expires_in") }
        }
        return changed
    }
}
