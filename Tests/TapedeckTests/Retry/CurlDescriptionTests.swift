import Foundation
import Testing
import Tapedeck
import TapedeckStubServer
import TapedeckTestSupport

/// `HTTPRequest.curlDescription`: the command line, its shell quoting, the masking of secrets, and — with the curl
/// tool — that running it sends what the request would.
@Suite struct CurlDescriptionTests {
    @Test func aPlainGet() {
        let request = HTTPRequest(url: URL(string: "https://api.example.com/items?page=2&sort=name")!, redirectPolicy: .none)
        #expect(request.curlDescription == "curl 'https://api.example.com/items?page=2&sort=name'")
    }

    @Test func aPostWithHeadersAndAQuotedBody() {
        var request = HTTPRequest(method: .post, url: URL(string: "https://api.example.com/items")!)
        request.headers["Content-Type"] = "application/json"
        request.headers["Accept-Language"] = "en;q=1, fr;q=0.5"
        request.body = .data(Data(#"{"name":"it's $HOME `x`"}"#.utf8))
        #expect(request.curlDescription == #"""
            curl -X POST https://api.example.com/items \
              -H 'Content-Type: application/json' \
              -H 'Accept-Language: en;q=1, fr;q=0.5' \
              --data-raw '{"name":"it'\''s $HOME `x`"}' \
              --location --max-redirs 16
            """#)
    }

    @Test func secretsAreMaskedAndAuthorizationKeepsItsScheme() {
        var request = HTTPRequest(url: URL(string: "https://ada:hunter2@api.example.com/x?api_key=k1&q=cats&access_token=t")!,
                                  redirectPolicy: .none)
        request.headers = HTTPHeaders([
            ("Authorization", "Bearer abc.def"), ("Proxy-Authorization", "Basic Zm9vOmJhcg=="), ("Cookie", "session=s3"),
            ("X-Api-Key", "k2"), ("X-Refresh-Token", "r"), ("x-client-secret", "cs"), ("Accept", "*/*"),
        ])
        let description = request.curlDescription
        for secret in ["hunter2", "abc.def", "Zm9vOmJhcg==", "s3", "k1", "k2", "=t", "'X-Refresh-Token: r'", "cs'"] {
            #expect(!description.contains(secret), "\(secret) leaked: \(description)")
        }
        #expect(description.contains("'https://ada:***@api.example.com/x?api_key=***&q=cats&access_token=***'"))
        #expect(description.contains("-H 'Authorization: Bearer ***'"))
        #expect(description.contains("-H 'Proxy-Authorization: Basic ***'"))
        #expect(description.contains("-H 'Cookie: ***'"))
        #expect(description.contains("-H 'X-Api-Key: ***'"))
        #expect(description.contains("-H 'Accept: */*'"))

        let revealed = request.curlDescription(masking: nil)
        #expect(revealed.contains("-H 'Authorization: Bearer abc.def'"))
        #expect(revealed.contains("hunter2"))
    }

    @Test func theDocumentedExample() {
        var request = HTTPRequest(method: .post, url: URL(string: "https://api.example.com/items?api_key=k1")!)
        request.headers["Authorization"] = "Bearer abc"
        request.headers["Content-Type"] = "application/json"
        request.body = .data(Data(#"{"name":"it's"}"#.utf8))
        #expect(request.curlDescription == #"""
            curl -X POST 'https://api.example.com/items?api_key=***' \
              -H 'Authorization: Bearer ***' \
              -H 'Content-Type: application/json' \
              --data-raw '{"name":"it'\''s"}' \
              --location --max-redirs 16
            """#)
    }

    @Test func theSensitiveNameList() {
        let names = SensitiveHeaderNames.default
        for name in ["authorization", "PROXY-AUTHORIZATION", "Cookie", "Set-Cookie", "X-API-KEY", "x-goog-api-key", "X-My-Token",
                     "client_secret", "X-Amz-Signature", "db-password"] {
            #expect(names.contains(name), "\(name)")
        }
        for name in ["Accept", "Content-Type", "X-Request-Id", "User-Agent", "Keyboard"] {
            #expect(!names.contains(name), "\(name)")
        }
        let custom = SensitiveHeaderNames(names: ["X-Internal"], fragments: [])
        #expect(custom.contains("x-internal") && !custom.contains("Authorization"))
    }

    @Test func headMethodsEmptyHeadersAndOptions() {
        var request = HTTPRequest(method: .head, url: URL(string: "http://127.0.0.1:8080/a[1]")!, redirectPolicy: .none)
        request.headers["X-Empty"] = ""
        request.totalTimeout = 5
        request.tls = TLSSettings(verifiesPeer: false, pinnedPublicKeyHashes: ["abc=", "def="])
        request.httpVersion = .http1_1
        request.responseBody = .file(URL(fileURLWithPath: "/tmp/out file"))
        let lines = request.curlDescription.components(separatedBy: " \\\n  ")
        #expect(lines.first?.hasPrefix("curl --head ") == true)
        #expect(lines.first?.contains("--globoff") == request.url.absoluteString.contains("["))
        #expect(Array(lines.dropFirst()) == [
            "-H 'X-Empty;'", "--max-time 5.0", "--insecure", "--pinnedpubkey 'sha256//abc=;sha256//def='", "--http1.1",
            "--output '/tmp/out file'",
        ])
    }

    @Test func binaryFileAndStreamBodies() {
        var request = HTTPRequest(method: .put, url: URL(string: "http://h/upload")!, redirectPolicy: .none)
        request.headers["Content-Type"] = "application/octet-stream"
        request.body = .data(Data([0x00, 0x41, 0x25, 0x5C, 0x27, 0xFF, 0x0A]))
        #expect(request.curlDescription == #"""
            printf '\000A%%\\\047\377\012' | curl -X PUT http://h/upload \
              -H 'Content-Type: application/octet-stream' \
              --data-binary @-
            """#)

        request.body = .file(URL(fileURLWithPath: "/tmp/my file.bin"))
        #expect(request.curlDescription.hasSuffix("--data-binary '@/tmp/my file.bin'"))

        request.body = .stream(HTTPBodyStream(length: 42) { AsyncThrowingStream<Data, any Error> { $0.finish() } })
        #expect(request.curlDescription.hasSuffix("--data-binary @-  # the body is a stream of 42 bytes: pipe it to standard input"))

        request.body = .data(Data(count: 70_000))
        #expect(request.curlDescription.hasSuffix("  # a body of 70000 bytes is not shown"))

        request.headers = [:]
        request.body = .data(Data("a=1".utf8))
        #expect(request.curlDescription.contains("-H Content-Type:"), "curl must not add its form content type")
    }

    @Test(.enabled(if: ExternalCommand.hasCurl, "the curl command-line tool is not installed"))
    func runningTheCommandSendsTheSameRequest() async throws {
        try await withStubServer { server in
            server.route(nil, "/echo", response: .text("ok"))
            let bodies: [Data] = [Data(#"{"q":"it's \"quoted\" $x `y` \ back"}"#.utf8), Data((0...255).map { UInt8($0) })]
            for body in bodies {
                var request = HTTPRequest(method: .patch, url: server.url("/echo?a=1&b=two%20words"))
                request.headers = HTTPHeaders([("X-Quote", #"it's "this" & $that"#), ("Authorization", "Bearer s3cret"),
                                               ("Content-Type", "application/x-test")])
                request.body = .data(body)
                let sh = URL(fileURLWithPath: "/bin/sh")
                let output = try await ExternalCommand.run(sh, ["-c", request.curlDescription(masking: nil) + " -sS -o /dev/null"])
                #expect(output.status == 0, "\(output.standardError)")
                let received = try #require(server.journal.entries.last)
                #expect(received.method == .patch)
                #expect(received.path == "/echo")
                #expect(received.query == "a=1&b=two%20words")
                #expect(received.headers["X-Quote"] == #"it's "this" & $that"#)
                #expect(received.headers["Authorization"] == "Bearer s3cret")
                #expect(received.headers["Content-Type"] == "application/x-test")
                #expect(received.body == body)
            }
        }
    }
}
