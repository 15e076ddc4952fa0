import Foundation
@testable import TapedeckSession
import TapedeckCore

/// The header grammars the client parses from responses: `Set-Cookie` into the cookie store and back out as
/// `Cookie`, `WWW-Authenticate` (and Digest's answer to it), `Cache-Control`. Each input line is one header value.
enum HeaderGrammarTargets {
    static func lines(_ data: Data) -> [String] {
        String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// A `Cookie` header made from any stored cookies holds no control character but HTAB (rfc6265bis §5.6 refuses the
    /// others: they would end up in the request head).
    static let setCookie = FuzzTarget(
        name: "set-cookie",
        summary: "SetCookieHeader and CookieStore; the Cookie header sent has no control characters"
    ) { data in
        let headers = lines(data)
        for header in headers { _ = SetCookieHeader(header) }
        let store = CookieStore()
        let url = URL(string: "https://www.example.com/a/b")!
        store.store(setCookieHeaders: headers, for: url)
        if let cookie = store.cookieHeader(for: url) {
            FuzzCheck.require(!cookie.unicodeScalars.contains { ($0.value < 0x20 && $0.value != 0x09) || $0.value == 0x7F }, "Cookie header with a control character: \(cookie.debugDescription)")
        }
    }

    /// Each Digest challenge answered: the `Authorization` value parses back as one `Digest` with the same response.
    static let wwwAuthenticate = FuzzTarget(
        name: "www-authenticate",
        summary: "AuthenticationChallenge.parse and Digest answers; an answer parses back with its response"
    ) { data in
        let digest = DigestAuthentication(makeClientNonce: { "0a4f113b" })
        for challenge in AuthenticationChallenge.parse(headerValues: lines(data)) {
            guard let parameters = DigestChallenge(challenge) else { continue }
            guard let answer = digest.authorization(for: parameters, credential: Credential(user: "Mufasa", password: "Circle of Life"),
                                                    method: .get, uri: "/dir/index.html", nonceCount: 1) else { continue }
            let parsed = AuthenticationChallenge.parse(answer.headerValue)
            FuzzCheck.require(parsed.count == 1 && parsed.first?["response"] == answer.response,
                              "the answer \(answer.headerValue.debugDescription) does not parse back")
        }
    }

    static let cacheControl = FuzzTarget(
        name: "cache-control",
        summary: "CacheControl directives of Cache-Control and Pragma; parsing is stable"
    ) { data in
        var headers = HTTPHeaders()
        for line in lines(data) { headers.add(name: "Cache-Control", value: line) }
        headers.add(name: "Pragma", value: "no-cache")
        let once = CacheControl(headers, readingPragma: true)
        FuzzCheck.require(once == CacheControl(headers, readingPragma: true), "parsing the same headers twice differs")
        for line in lines(data) { _ = CacheControl.directives(in: line) }
    }
}
