import Foundation
import Testing
import TapedeckSession

/// `WWW-Authenticate` / `Proxy-Authenticate` parsing (RFC 9110 §11.6.1): lists of challenges within and across
/// fields, auth-params with quoted strings and escapes, token68, and malformed input skipped without failing.
@Suite struct ChallengeParserTests {
    @Test func oneBasicChallenge() {
        let challenges = AuthenticationChallenge.parse(#"Basic realm="WallyWorld", charset="UTF-8""#)
        #expect(challenges == [AuthenticationChallenge(scheme: .basic, parameters: ["realm": "WallyWorld", "charset": "UTF-8"])])
        #expect(challenges.first?.realm == "WallyWorld")
        #expect(challenges.first?["CHARSET"] == "UTF-8")
    }

    @Test func severalChallengesInOneFieldAsRFC9110Shows() {
        let value = #"Newauth realm="apps", type=1, title="Login to \"apps\"", Basic realm="simple""#
        let challenges = AuthenticationChallenge.parse(value)
        #expect(challenges.count == 2)
        #expect(challenges[0].scheme == AuthenticationScheme("newauth"))
        #expect(challenges[0].parameters == ["realm": "apps", "type": "1", "title": #"Login to "apps""#])
        #expect(challenges[1] == AuthenticationChallenge(scheme: .basic, parameters: ["realm": "simple"]))
    }

    @Test func challengesAcrossFieldsOnlyFromTheFieldTheStatusNames() {
        let url = URL(string: "http://127.0.0.1/")!
        let headers = HTTPHeaders([
            ("WWW-Authenticate", #"Digest realm="r", nonce="n1", qop="auth""#),
            ("Proxy-Authenticate", #"Basic realm="proxy""#),
            ("www-authenticate", #"Basic realm="r""#),
        ])
        let server = AuthenticationChallenge.challenges(in: HTTPResponseHead(statusCode: 401, headers: headers, url: url))
        #expect(server.map(\.scheme) == [.digest, .basic])
        #expect(server.allSatisfy { !$0.isProxy })
        let proxy = AuthenticationChallenge.challenges(in: HTTPResponseHead(statusCode: 407, headers: headers, url: url))
        #expect(proxy == [AuthenticationChallenge(scheme: .basic, parameters: ["realm": "proxy"], isProxy: true)])
        #expect(AuthenticationChallenge.challenges(in: HTTPResponseHead(statusCode: 200, headers: headers, url: url)).isEmpty)
    }

    @Test func token68AndTheChallengeAfterIt() {
        let challenges = AuthenticationChallenge.parse("Negotiate YIIBhwYGKwYBBQUCoIIBezCCAXeg+/w==, Bearer realm=\"api\", Foo")
        #expect(challenges.count == 3)
        #expect(challenges[0].scheme == .negotiate)
        #expect(challenges[0].token68 == "YIIBhwYGKwYBBQUCoIIBezCCAXeg+/w==")
        #expect(challenges[0].parameters.isEmpty)
        #expect(challenges[1] == AuthenticationChallenge(scheme: .bearer, parameters: ["realm": "api"]))
        #expect(challenges[2] == AuthenticationChallenge(scheme: "foo"))
    }

    @Test func quotedStringsKeepCommasAndEqualsAndUnescape() {
        let challenges = AuthenticationChallenge.parse(#"Digest realm="a, b=c", nonce="x\\y\"z", qop="auth,auth-int""#)
        #expect(challenges.count == 1)
        #expect(challenges[0].realm == "a, b=c")
        #expect(challenges[0]["nonce"] == #"x\y"z"#)
        #expect(challenges[0]["qop"] == "auth,auth-int")
    }

    @Test func namesAreCaseInsensitiveWhitespaceAroundEqualsIsAllowedAndTheFirstValueWins() {
        let challenges = AuthenticationChallenge.parse("DIGEST Realm = \"one\" ,\tNONCE=abc, realm=\"two\"")
        #expect(challenges == [AuthenticationChallenge(scheme: .digest, parameters: ["realm": "one", "nonce": "abc"])])
        #expect(AuthenticationScheme("DiGeSt") == .digest)
        #expect(AuthenticationScheme("basic").description == "Basic")
    }

    @Test func emptyListElementsAndParameterlessSchemes() {
        let challenges = AuthenticationChallenge.parse(" , Basic, ,Digest realm=x,,nonce=y ,")
        #expect(challenges.map(\.scheme) == [.basic, .digest])
        #expect(challenges[1].parameters == ["realm": "x", "nonce": "y"])
    }

    @Test(arguments: [
        ("", 0),
        ("   ", 0),
        (#"=junk, Basic realm="r""#, 1),
        (#"Basic=x, Basic realm="r""#, 1),
        (#"Basic realm="unterminated"#, 1),
        (#"Basic realm="r" trailing junk, Bearer"#, 2),
        ("Basic realm=", 1),
    ])
    func malformedInputIsSkippedNotFatal(value: String, count: Int) {
        #expect(AuthenticationChallenge.parse(value).count == count)
    }

    @Test func anUnterminatedQuotedStringRunsToTheEnd() {
        #expect(AuthenticationChallenge.parse(#"Basic realm="open, ended"#).first?.realm == "open, ended")
    }
}
