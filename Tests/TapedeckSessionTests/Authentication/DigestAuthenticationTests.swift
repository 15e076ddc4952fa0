import Foundation
import Testing
import TapedeckSession
import TapedeckTestSupport

/// `Digest` (RFC 7616): the worked example of §3.9.1 for MD5 and SHA-256, challenge parameters, qop choice,
/// `userhash`, `username*`, the request URI and the nonce count.
@Suite struct DigestAuthenticationTests {
    static let rfcChallenge = #"""
        Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=SHA-256, \#
        nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"
        """#
    static let rfcClientNonce = "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ"
    static let mufasa = Credential(user: "Mufasa", password: "Circle of Life")

    static func parsed(_ value: String) throws -> DigestChallenge {
        let challenge = try #require(AuthenticationChallenge.parse(value).first)
        return try #require(DigestChallenge(challenge))
    }

    @Test func theRFC7616SHA256Example() throws {
        let challenge = try Self.parsed(Self.rfcChallenge)
        #expect(challenge.algorithm == .sha256)
        #expect(challenge.qopOptions == [.auth, .authInt])
        let digest = DigestAuthentication(makeClientNonce: { Self.rfcClientNonce })
        let answer = try #require(digest.authorization(for: challenge, credential: Self.mufasa, method: .get,
                                                       uri: "/dir/index.html", nonceCount: 1))
        #expect(answer.response == "753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1")
        #expect(answer.qop == .auth)
        #expect(answer.headerValue == #"""
            Digest username="Mufasa", realm="http-auth@example.org", uri="/dir/index.html", algorithm=SHA-256, \#
            nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", nc=00000001, \#
            cnonce="f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ", qop=auth, \#
            response="753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1", \#
            opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"
            """#)
    }

    @Test func theRFC7616MD5Example() throws {
        let challenge = try Self.parsed(Self.rfcChallenge.replacingOccurrences(of: "SHA-256", with: "MD5"))
        let digest = DigestAuthentication(makeClientNonce: { Self.rfcClientNonce })
        let answer = try #require(digest.authorization(for: challenge, credential: Self.mufasa, method: .get,
                                                       uri: "/dir/index.html", nonceCount: 1))
        #expect(answer.response == "8ca523f5e9506fed4657c9700eebdbec")
        #expect(answer.headerValue.contains("algorithm=MD5,"))
        #expect(DigestAuthentication.response(
            algorithm: .md5, user: "Mufasa", realm: "http-auth@example.org", password: "Circle of Life",
            nonce: "7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", clientNonce: Self.rfcClientNonce, nonceCount: 1,
            qop: .auth, method: .get, uri: "/dir/index.html") == "8ca523f5e9506fed4657c9700eebdbec")
    }

    @Test func challengeParametersAndDefaults() throws {
        let plain = try Self.parsed(#"Digest realm="r", nonce="n""#)
        #expect(plain.algorithm == .md5)
        #expect(!plain.namesAlgorithm)
        #expect(plain.qopOptions.isEmpty)
        #expect(!plain.isStale && !plain.supportsUserhash && plain.opaque == nil)
        let flagged = try Self.parsed(#"Digest realm="r", nonce="n", algorithm=sha-256-SESS, stale=TRUE, userhash=true, qop="auth-int""#)
        #expect(flagged.algorithm == .sha256Session)
        #expect(flagged.isStale && flagged.supportsUserhash)
        #expect(flagged.qopOptions == [.authInt])
    }

    @Test(arguments: [
        #"Basic realm="r""#,
        #"Digest realm="r""#,
        #"Digest realm="r", nonce="n", algorithm=SHA-1"#,
        #"Digest realm="r", nonce="n", qop="auth-conf""#,
    ])
    func challengesThatCannotBeAnswered(value: String) {
        #expect(AuthenticationChallenge.parse(value).first.flatMap(DigestChallenge.init) == nil)
    }

    @Test func sha512_256IsAnswered() throws {
        let challenge = try Self.parsed(#"Digest realm="r", nonce="n", qop="auth", algorithm=SHA-512-256-sess"#)
        #expect(challenge.algorithm == .sha512_256Session && challenge.algorithm.isSession)
    }

    @Test func anRFC2069ChallengeIsAnsweredWithoutQopNcOrCnonce() throws {
        let challenge = try Self.parsed(#"Digest realm="r", nonce="n""#)
        let answer = try #require(DigestAuthentication(makeClientNonce: { "c" })
            .authorization(for: challenge, credential: Self.mufasa, method: .get, uri: "/", nonceCount: 1))
        #expect(answer.qop == nil)
        #expect(!answer.headerValue.contains("nc=") && !answer.headerValue.contains("cnonce=") && !answer.headerValue.contains("algorithm="))
        let a1 = DigestAlgorithm.md5.hexDigest("Mufasa:r:Circle of Life")
        let a2 = DigestAlgorithm.md5.hexDigest("GET:/")
        #expect(answer.response == DigestAlgorithm.md5.hexDigest("\(a1):n:\(a2)"))
    }

    @Test func authIntHashesTheBodyAndIsChosenOnlyWhenPreferredOrAlone() throws {
        let both = try Self.parsed(#"Digest realm="r", nonce="n", qop="auth,auth-int""#)
        let body = Data("hello".utf8)
        let plain = DigestAuthentication(makeClientNonce: { "c" })
        #expect(plain.authorization(for: both, credential: Self.mufasa, method: .post, uri: "/", body: .data(body), nonceCount: 1)?.qop == .auth)
        let strict = DigestAuthentication(prefersIntegrityProtection: true, makeClientNonce: { "c" })
        let answer = try #require(strict.authorization(for: both, credential: Self.mufasa, method: .post, uri: "/",
                                                       body: .data(body), nonceCount: 1))
        #expect(answer.qop == .authInt)
        let a1 = DigestAlgorithm.md5.hexDigest("Mufasa:r:Circle of Life")
        let a2 = DigestAlgorithm.md5.hexDigest("POST:/:" + DigestAlgorithm.md5.hexDigest(body))
        #expect(answer.response == DigestAlgorithm.md5.hexDigest("\(a1):n:00000001:c:auth-int:\(a2)"))

        let only = try Self.parsed(#"Digest realm="r", nonce="n", qop="auth-int""#)
        let stream = HTTPBodyStream(length: 5) { AsyncThrowingStream<Data, any Error> { $0.finish() } }
        #expect(plain.authorization(for: only, credential: Self.mufasa, method: .post, uri: "/", body: .stream(stream), nonceCount: 1) == nil)
        #expect(plain.authorization(for: only, credential: Self.mufasa, method: .post, uri: "/", body: .data(body), nonceCount: 1)?.response
            == answer.response)
    }

    @Test func authIntOverAFileBodyHashesTheFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.file("body.bin")
        let bytes = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try bytes.write(to: file)
        let only = try Self.parsed(#"Digest realm="r", nonce="n", qop="auth-int", algorithm=SHA-256"#)
        let digest = DigestAuthentication(makeClientNonce: { "c" })
        let fromFile = digest.authorization(for: only, credential: Self.mufasa, method: .put, uri: "/f", body: .file(file), nonceCount: 1)
        let fromData = digest.authorization(for: only, credential: Self.mufasa, method: .put, uri: "/f", body: .data(bytes), nonceCount: 1)
        #expect(fromFile != nil && fromFile == fromData)
    }

    @Test func userhashReplacesTheNameWhenTheServerOffersIt() throws {
        let challenge = try Self.parsed(#"Digest realm="api@example.org", nonce="n", qop="auth", algorithm=SHA-256, userhash=true"#)
        let hashed = try #require(DigestAuthentication(makeClientNonce: { "c" })
            .authorization(for: challenge, credential: Self.mufasa, method: .get, uri: "/", nonceCount: 1))
        let expectedName = DigestAlgorithm.sha256.hexDigest("Mufasa:api@example.org")
        #expect(hashed.headerValue.hasPrefix(#"Digest username="\#(expectedName)""#))
        #expect(hashed.headerValue.hasSuffix("userhash=true"))
        let plain = try #require(DigestAuthentication(hashesUsername: false, makeClientNonce: { "c" })
            .authorization(for: challenge, credential: Self.mufasa, method: .get, uri: "/", nonceCount: 1))
        #expect(plain.headerValue.hasPrefix(#"Digest username="Mufasa""#))
        #expect(!plain.headerValue.contains("userhash"))
        #expect(plain.response == hashed.response, "the response hashes the real name either way")
    }

    @Test func aNonASCIINameIsSentAsAnExtendedValueAndQuotesAreEscaped() throws {
        let challenge = try Self.parsed(#"Digest realm="say \"hi\"", nonce="n", qop="auth""#)
        let answer = try #require(DigestAuthentication(makeClientNonce: { "c" })
            .authorization(for: challenge, credential: Credential(user: "J\u{E4}s\u{F8}n Doe", password: "p"),
                           method: .get, uri: "/", nonceCount: 1))
        #expect(answer.headerValue.hasPrefix("Digest username*=UTF-8''J%C3%A4s%C3%B8n%20Doe, "))
        #expect(answer.headerValue.contains(#"realm="say \"hi\"""#))
        let reparsed = try #require(AuthenticationChallenge.parse(answer.headerValue).first)
        #expect(reparsed.realm == #"say "hi""#)
    }

    @Test func theRequestURIIsTheEncodedPathAndQuery() {
        #expect(DigestAuthentication.requestURI(of: URL(string: "http://h/dir/a%20b?x=1&y=%2F")!) == "/dir/a%20b?x=1&y=%2F")
        #expect(DigestAuthentication.requestURI(of: URL(string: "http://h:8080")!) == "/")
        #expect(DigestAuthentication.requestURI(of: URL(string: "http://h?q")!) == "/?q")
    }

    @Test func theNonceCountGoesUpPerNonceAndOldNoncesAreForgotten() {
        let counter = DigestNonceCounter(capacity: 2)
        #expect(counter.next(for: "a") == 1)
        #expect(counter.next(for: "a") == 2)
        #expect(counter.next(for: "b") == 1)
        #expect(counter.next(for: "a") == 3)
        #expect(counter.next(for: "c") == 1)
        #expect(counter.next(for: "b") == 1, "b was used longest ago and forgotten when c came")
    }

    @Test func theNonceCountIsEightHexDigits() throws {
        let challenge = try Self.parsed(#"Digest realm="r", nonce="n", qop="auth""#)
        let answer = DigestAuthentication(makeClientNonce: { "c" })
            .authorization(for: challenge, credential: Self.mufasa, method: .get, uri: "/", nonceCount: 0x1ab)
        #expect(answer?.headerValue.contains("nc=000001ab,") == true)
    }

    @Test func randomClientNoncesDiffer() {
        let first = DigestAuthentication.randomClientNonce()
        #expect(first.count == 32)
        #expect(first != DigestAuthentication.randomClientNonce())
    }
}
