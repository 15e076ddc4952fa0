import Foundation
import Testing
@testable import TapedeckSession
import TapedeckTestSupport

/// The same `Set-Cookie`/request table run through ``CookieStore`` and through Python's `http.cookiejar`, on cases
/// where RFC 6265 and cookiejar agree. cookiejar runs with `DomainStrictNonDomain` (host-only cookies stay on their
/// host, as RFC 6265 and browsers have it) and `strict_domain` (refuses `Domain=co.uk`-like domains); its defaults
/// are more liberal. Cases where they part company are left out: a `Secure` cookie from `http` (cookiejar stores it;
/// rfc6265bis refuses it), a malformed `Max-Age` (cookiejar drops the cookie, RFC 6265 the attribute), a pair
/// without `=` (cookiejar sends a bare name), `Expires` in asctime format (cookiejar does not read it and keeps a
/// session cookie) and two-digit years (cookiejar's window moves with the current year).
@Suite struct CookieJarCrossCheckTests {
    struct Response: Codable {
        let url: String
        let setCookie: [String]
    }

    struct Case: Codable, CustomStringConvertible {
        let responses: [Response]
        let request: String
        let expected: String?

        init(_ url: String, _ setCookie: [String], then responses: [Response] = [], request: String,
             _ expected: String?) {
            self.responses = [Response(url: url, setCookie: setCookie)] + responses
            self.request = request
            self.expected = expected
        }

        var description: String { "\(responses.map { "\($0.url) \($0.setCookie)" }) → \(request)" }
    }

    static let farFuture = "Expires=Fri, 01 Jan 2100 00:00:00 GMT"
    static let past = "Expires=Sun, 06 Nov 1994 08:49:37 GMT"

    static let cases: [Case] = [
        // Host-only and domain cookies
        Case("http://example.com/", ["a=1"], request: "http://example.com/", "a=1"),
        Case("http://example.com/", ["a=1"], request: "http://www.example.com/", nil),
        Case("http://www.example.com/", ["a=1"], request: "http://example.com/", nil),
        Case("http://www.example.com/", ["a=1; Domain=example.com"], request: "http://example.com/", "a=1"),
        Case("http://www.example.com/", ["a=1; Domain=.example.com"], request: "http://x.y.example.com/", "a=1"),
        Case("http://www.example.com/", ["a=1; Domain=example.com"], request: "http://notexample.com/", nil),
        Case("http://www.example.com/", ["a=1; Domain=EXAMPLE.com"], request: "http://Example.COM/", "a=1"),
        Case("http://example.com/", ["a=1; Domain=other.com"], request: "http://other.com/", nil),
        Case("http://example.com/", ["a=1; Domain=other.com"], request: "http://example.com/", nil),
        Case("http://example.com/", ["a=1; Domain=www.example.com"], request: "http://www.example.com/", nil),
        Case("http://www.example.com/", ["a=1; Domain=com"], request: "http://example.com/", nil),
        Case("http://www.example.co.uk/", ["a=1; Domain=co.uk"], request: "http://other.co.uk/", nil),
        Case("http://www.example.co.uk/", ["a=1; Domain=example.co.uk"], request: "http://example.co.uk/", "a=1"),
        Case("http://127.0.0.1:8080/", ["a=1"], request: "http://127.0.0.1:9090/x", "a=1"),
        // Paths
        Case("http://example.com/a/b/c", ["a=1"], request: "http://example.com/a/b/x", "a=1"),
        Case("http://example.com/a/b/c", ["a=1"], request: "http://example.com/a/bc", nil),
        Case("http://example.com/a/b/c", ["a=1"], request: "http://example.com/a/", nil),
        Case("http://example.com/a/b/", ["a=1"], request: "http://example.com/a/b", "a=1"),
        Case("http://example.com/a", ["a=1"], request: "http://example.com/", "a=1"),
        Case("http://example.com/", ["a=1; Path=/docs"], request: "http://example.com/docs/web", "a=1"),
        Case("http://example.com/", ["a=1; Path=/docs"], request: "http://example.com/docsets", nil),
        Case("http://example.com/", ["a=1; Path=/docs/"], request: "http://example.com/docs/", "a=1"),
        Case("http://example.com/x/y", ["a=1; Path=/other"], request: "http://example.com/other/z", "a=1"),
        Case("http://example.com/", ["a=1; Path=/"], request: "http://example.com/deep/er?q=1#f", "a=1"),
        // Order: longer path first, then creation (here: header order)
        Case("http://example.com/a/b/c", ["r=1; Path=/", "ab=1; Path=/a/b", "a=1; Path=/a", "r2=1; Path=/"],
             request: "http://example.com/a/b/c", "ab=1; a=1; r=1; r2=1"),
        Case("http://example.com/", ["z=1", "y=2", "x=3"], request: "http://example.com/", "z=1; y=2; x=3"),
        // Secure
        Case("https://example.com/", ["s=1; Secure", "p=1"], request: "http://example.com/", "p=1"),
        Case("https://example.com/", ["s=1; Secure", "p=1"], request: "https://example.com/", "s=1; p=1"),
        // Expiry: Max-Age, Expires in each format, deletion
        Case("http://example.com/", ["a=1; Max-Age=3600"], request: "http://example.com/", "a=1"),
        Case("http://example.com/", ["a=1; Max-Age=0"], request: "http://example.com/", nil),
        Case("http://example.com/", ["a=1; \(farFuture)"], request: "http://example.com/", "a=1"),
        Case("http://example.com/", ["a=1; \(past)"], request: "http://example.com/", nil),
        Case("http://example.com/", ["a=1; Expires=Sunday, 06-Nov-1994 08:49:37 GMT"], request: "http://example.com/",
             nil),
        Case("http://example.com/", ["a=1; Expires=Friday, 01-Jan-2100 00:00:00 GMT"], request: "http://example.com/",
             "a=1"),
        Case("http://example.com/", ["a=1; Expires=Tue, 01-Jan-2099 00:00:00 GMT"], request: "http://example.com/",
             "a=1"),
        Case("http://example.com/", ["a=1; Max-Age=3600; \(past)"], request: "http://example.com/", "a=1"),
        Case("http://example.com/", ["a=1; \(past); Max-Age=3600"], request: "http://example.com/", "a=1"),
        Case("http://example.com/", ["a=1; \(farFuture); Max-Age=0"], request: "http://example.com/", nil),
        Case("http://example.com/", ["a=1", "b=2"],
             then: [.init(url: "http://example.com/", setCookie: ["a=x; Max-Age=0"])],
             request: "http://example.com/", "b=2"),
        Case("http://example.com/", ["a=1", "b=2"],
             then: [.init(url: "http://example.com/", setCookie: ["b=x; \(past)"])],
             request: "http://example.com/", "a=1"),
        // Replacement and values
        Case("http://example.com/", ["a=1"], then: [.init(url: "http://example.com/", setCookie: ["a=2"])],
             request: "http://example.com/", "a=2"),
        Case("http://example.com/", ["a=1; Path=/"], then: [.init(url: "http://example.com/p/q", setCookie: ["a=2"])],
             request: "http://example.com/p/q", "a=2; a=1"),
        Case("http://example.com/", ["empty="], request: "http://example.com/", "empty="),
        Case("http://example.com/", ["  spaced  =  out value  ; Path=/"], request: "http://example.com/",
             "spaced=out value"),
        Case("http://example.com/", ["a=b=c"], request: "http://example.com/", "a=b=c"),
        Case("http://example.com/", ["a=1; HttpOnly; SameSite=Strict; Unknown=x"], request: "http://example.com/",
             "a=1"),
    ]

    @Test(arguments: cases)
    func cookieStoreGivesTheExpectedHeader(_ testCase: Case) {
        #expect(Self.cookieStoreHeader(testCase) == testCase.expected)
    }

    @Test func pythonCookiejarGivesTheSameHeaders() async throws {
        guard let python = Self.findPython() else {
            print("pythonCookiejarGivesTheSameHeaders skipped: python3 not found on PATH")
            try Test.cancel("python3 not found on PATH: the cross-check with http.cookiejar did not run")
        }
        let headers = try await Self.cookiejarHeaders(Self.cases, python: python)
        try #require(headers.count == Self.cases.count)
        for (testCase, header) in zip(Self.cases, headers) {
            #expect(header == testCase.expected, "cookiejar: \(testCase)")
            #expect(Self.cookieStoreHeader(testCase) == header, "CookieStore against cookiejar: \(testCase)")
        }
    }

    static func cookieStoreHeader(_ testCase: Case) -> String? {
        let store = CookieStore()
        for response in testCase.responses {
            store.store(setCookieHeaders: response.setCookie, for: url(response.url))
        }
        return store.cookieHeader(for: url(testCase.request))
    }

    static let script = """
        import email.message, json, sys, urllib.request
        from http.cookiejar import CookieJar, DefaultCookiePolicy

        class Response:
            def __init__(self, headers):
                self.headers = email.message.Message()
                for header in headers:
                    self.headers["Set-Cookie"] = header
            def info(self):
                return self.headers

        results = []
        for case in json.load(sys.stdin):
            policy = DefaultCookiePolicy(strict_domain=True,
                                         strict_ns_domain=DefaultCookiePolicy.DomainStrictNonDomain)
            jar = CookieJar(policy)
            for response in case["responses"]:
                jar.extract_cookies(Response(response["setCookie"]), urllib.request.Request(response["url"]))
            request = urllib.request.Request(case["request"])
            jar.add_cookie_header(request)
            results.append(request.get_header("Cookie"))
        json.dump(results, sys.stdout)
        """

    static func findPython() -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").lazy
            .map { URL(fileURLWithPath: String($0)).appendingPathComponent("python3") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    static func cookiejarHeaders(_ cases: [Case], python: URL) async throws -> [String?] {
        let output = try await ExternalCommand.run(python, ["-c", script], input: JSONEncoder().encode(cases))
        guard output.status == 0 else {
            throw PythonFailed(description: "python3 exited with \(output.status): \(output.standardError)")
        }
        return try JSONDecoder().decode([String?].self, from: output.standardOutput)
    }

    struct PythonFailed: Error, CustomStringConvertible {
        let description: String
    }
}
