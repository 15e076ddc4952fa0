import Foundation
import Testing
import TapedeckCore
import TapedeckCurl
import TapedeckSession
import TapedeckStubServer

extension Loopback {
    /// `StubServer.httpbin()` answering the live transport the way httpbin.org does.
    @Suite struct HttpbinTests {
        let transport = CurlTransport()

        private func json(_ response: HTTPResponse) throws -> [String: Any] {
            try #require(JSONSerialization.jsonObject(with: response.data ?? Data()) as? [String: Any])
        }

        private func withHttpbin(_ body: (StubServer) async throws -> Void) async throws {
            let server = try StubServer.httpbin()
            defer { server.stop() }
            try await body(server)
        }

        @Test func getEchoesArgsHeadersAndURL() async throws {
            try await withHttpbin { server in
                let response = try await transport.send(HTTPRequest(url: server.url("/get?a=1&b=2&a=3"), headers: ["X-Custom": "yes"]))
                let document = try json(response)
                #expect(response.head.mimeType == "application/json")
                #expect((document["args"] as? [String: Any])?["b"] as? String == "2")
                #expect((document["args"] as? [String: Any])?["a"] as? [String] == ["1", "3"])
                #expect((document["headers"] as? [String: String])?["X-Custom"] == "yes")
                #expect(document["url"] as? String == "http://127.0.0.1:\(server.port)/get?a=1&b=2&a=3")
            }
        }

        @Test func postEchoesFormJSONAndRawData() async throws {
            try await withHttpbin { server in
                let form = try json(try await transport.send(HTTPRequest(
                    method: .post, url: server.url("/post"), headers: ["Content-Type": "application/x-www-form-urlencoded"],
                    body: .data(Data("name=tape+deck&n=1".utf8)))))
                #expect((form["form"] as? [String: Any])?["name"] as? String == "tape deck")
                let jsonBody = try json(try await transport.send(HTTPRequest(
                    method: .put, url: server.url("/put"), headers: ["Content-Type": "application/json"],
                    body: .data(Data(#"{"k":[1,2]}"#.utf8)))))
                #expect(((jsonBody["json"] as? [String: Any])?["k"] as? [Int]) == [1, 2])
                #expect(jsonBody["data"] as? String == #"{"k":[1,2]}"#)
            }
        }

        @Test func multipartFilesAndFieldsAreEchoed() async throws {
            try await withHttpbin { server in
                let body = "--B\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nhello\r\n"
                    + "--B\r\nContent-Disposition: form-data; name=\"upload\"; filename=\"f.txt\"\r\nContent-Type: text/plain\r\n\r\nfile text\r\n--B--\r\n"
                let document = try json(try await transport.send(HTTPRequest(
                    method: .post, url: server.url("/post"), headers: ["Content-Type": "multipart/form-data; boundary=B"],
                    body: .data(Data(body.utf8)))))
                #expect((document["form"] as? [String: Any])?["title"] as? String == "hello")
                #expect((document["files"] as? [String: Any])?["upload"] as? String == "file text")
            }
        }

        @Test func anythingEchoesAnyMethodAndPath() async throws {
            try await withHttpbin { server in
                let document = try json(try await transport.send(HTTPRequest(method: .patch, url: server.url("/anything/deep/path"))))
                #expect(document["method"] as? String == "PATCH")
                #expect((document["url"] as? String)?.hasSuffix("/anything/deep/path") == true)
            }
        }

        @Test(arguments: [200, 204, 404, 418, 500])
        func statusAnswersWithTheCode(code: Int) async throws {
            try await withHttpbin { server in
                let response = try await transport.send(HTTPRequest(url: server.url("/status/\(code)")))
                #expect(response.statusCode == code)
            }
        }

        @Test func redirectsEndAtGet() async throws {
            try await withHttpbin { server in
                #expect(try await transport.send(HTTPRequest(url: server.url("/redirect/3"))).statusCode == 302)
                let response = try await SessionTransport(transport).send(HTTPRequest(url: server.url("/redirect/3")))
                #expect(response.metrics.redirectCount == 3)
                #expect(response.head.url.path == "/get")
            }
        }

        @Test func basicAuthChecksTheCredentials() async throws {
            try await withHttpbin { server in
                let url = server.url("/basic-auth/user/pass")
                #expect(try await transport.send(HTTPRequest(url: url)).statusCode == 401)
                let good = "Basic " + Data("user:pass".utf8).base64EncodedString()
                let document = try json(try await transport.send(HTTPRequest(url: url, headers: ["Authorization": good])))
                #expect(document["authenticated"] as? Bool == true)
                #expect(try await transport.send(HTTPRequest(url: server.url("/hidden-basic-auth/user/pass"))).statusCode == 404)
            }
        }

        @Test func gzipIsRealGzipThatTheClientDecodes() async throws {
            try await withHttpbin { server in
                let response = try await transport.send(HTTPRequest(url: server.url("/gzip")))
                #expect(response.headers["Content-Encoding"] == "gzip")
                #expect(try json(response)["gzipped"] as? Bool == true)
            }
        }

        @Test func bytesAndStreamBytesAreTheGeneratedPattern() async throws {
            try await withHttpbin { server in
                let bytes = try await transport.send(HTTPRequest(url: server.url("/bytes/5000")))
                #expect(bytes.data == StubBody.generatedBytes(from: 0, count: 5000))
                let streamed = try await transport.send(HTTPRequest(url: server.url("/stream-bytes/5000?chunk_size=100")))
                #expect(streamed.headers["Transfer-Encoding"] == "chunked")
                #expect(streamed.data == bytes.data)
            }
        }

        @Test func dripSendsTheBytesAtTheAskedStatus() async throws {
            try await withHttpbin { server in
                let response = try await transport.send(HTTPRequest(url: server.url("/drip?duration=0.1&numbytes=5&code=201")))
                #expect(response.statusCode == 201)
                #expect(response.data == Data("*****".utf8))
            }
        }

        @Test func delayAnswersAfterTheDelay() async throws {
            try await withHttpbin { server in
                let started = ContinuousClock.now
                let response = try await transport.send(HTTPRequest(url: server.url("/delay/0.2")))
                #expect(response.statusCode == 200)
                #expect(ContinuousClock.now - started >= .milliseconds(200))
            }
        }

        @Test func responseHeadersAndFixedDocuments() async throws {
            try await withHttpbin { server in
                let headers = try await transport.send(HTTPRequest(url: server.url("/response-headers?X-Set=1&X-Set=2")))
                #expect(headers.headers.values(for: "X-Set") == ["1", "2"])
                let xml = try await transport.send(HTTPRequest(url: server.url("/xml")))
                #expect(xml.head.mimeType == "application/xml")
                #expect(String(decoding: xml.data ?? Data(), as: UTF8.self).contains("<slideshow"))
                let png = try await transport.send(HTTPRequest(url: server.url("/image/png")))
                #expect(png.data?.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
                let slideshow = try json(try await transport.send(HTTPRequest(url: server.url("/json"))))
                #expect(slideshow["slideshow"] != nil)
                let echoed = try json(try await transport.send(HTTPRequest(url: server.url("/headers"), headers: ["X-H": "v"])))
                #expect((echoed["headers"] as? [String: String])?["X-H"] == "v")
            }
        }

        @Test func badParametersAreA400ThatSaysWhy() async throws {
            try await withHttpbin { server in
                let response = try await transport.send(HTTPRequest(url: server.url("/bytes/lots")))
                #expect(response.statusCode == 400)
                #expect(String(decoding: response.data ?? Data(), as: UTF8.self).contains("/bytes/{n}"))
            }
        }
    }
}
