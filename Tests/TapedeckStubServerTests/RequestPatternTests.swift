import Foundation
import Testing
import TapedeckCore
@testable import TapedeckStubServer

@Suite struct PathPatternTests {
    @Test func exactPathsMatchOnlyThemselvesAsSentOrDecoded() {
        let pattern: PathPattern = "/a b"
        #expect(pattern == .exact("/a b"))
        #expect(pattern.matches(path: "/a%20b", decodedPath: "/a b"))
        #expect(!pattern.matches(path: "/a%20b/", decodedPath: "/a b/"))
    }

    @Test func templatesCaptureTheirSegments() {
        let pattern: PathPattern = "/users/{id}/posts/{post}"
        #expect(pattern == .template("/users/{id}/posts/{post}"))
        #expect(pattern.matches(path: "/users/7/posts/9", decodedPath: "/users/7/posts/9"))
        #expect(!pattern.matches(path: "/users/7/posts", decodedPath: "/users/7/posts"))
        #expect(pattern.parameters(decodedPath: "/users/7/posts/9") == ["id": "7", "post": "9"])
        #expect(PathPattern.template("/files/**").matches(path: "/files/a/b", decodedPath: "/files/a/b"))
    }

    @Test func regularExpressionsMustMatchTheWholePath() throws {
        let text = "/v[0-9]+/items"
        let pattern = PathPattern.regex(try StubRegex(text))
        #expect(pattern.matches(path: "/v2/items", decodedPath: "/v2/items"))
        #expect(!pattern.matches(path: "/v2/items/3", decodedPath: "/v2/items/3"))
        #expect(!pattern.matches(path: "/api/v2/items", decodedPath: "/api/v2/items"))
    }

    @Test func anInvalidRegularExpressionIsAClearError() {
        let text = "(unclosed"  // a variable: StubRegex("literal") is the literal initializer, which traps instead
        let error = #expect(throws: StubRegex.Error.self) { try StubRegex(text) }
        #expect(error?.description == "invalid regular expression \"(unclosed\": expected ')' at offset 9")
    }
}

@Suite struct RequestPatternTests {
    @Test func methodAndPath() {
        let matcher = RequestPattern(.get, "/items/{id}")
        #expect(matcher.matches(request(.get, "/items/3")))
        #expect(!matcher.matches(request(.post, "/items/3")))
        #expect(RequestPattern(nil, "/items/{id}").matches(request(.post, "/items/3")))
        #expect(RequestPattern().matches(request(.patch, "/anything")))
    }

    @Test func queryConditions() {
        let matcher = RequestPattern(.get, "/search").query("q", "swift").query("page", .matches("[0-9]+")).query("debug", .absent)
        #expect(matcher.matches(request(.get, "/search", query: "q=swift&page=2")))
        #expect(matcher.matches(request(.get, "/search", query: "page=10&q=swift")))
        #expect(!matcher.matches(request(.get, "/search", query: "q=swift&page=two")))
        #expect(!matcher.matches(request(.get, "/search", query: "q=swift&page=2&debug=1")))
        #expect(!matcher.matches(request(.get, "/search", query: "page=2")))
        #expect(RequestPattern(.get, "/s").query("q", .contains("wif")).matches(request(.get, "/s", query: "q=swift%20ui")))
    }

    @Test func headerConditionsIgnoreNameCase() {
        let matcher = RequestPattern(.get, "/h").header("accept", .contains("json")).header("X-Trace", .present)
        #expect(matcher.matches(request(.get, "/h", headers: ["Accept": "application/json", "x-trace": "1"])))
        #expect(!matcher.matches(request(.get, "/h", headers: ["Accept": "text/html", "X-Trace": "1"])))
        #expect(!matcher.matches(request(.get, "/h", headers: ["Accept": "application/json"])))
    }

    @Test func exactAndTextBodies() {
        #expect(RequestPattern(.post, "/b").body(.text("hello")).matches(request(.post, "/b", body: "hello")))
        #expect(!RequestPattern(.post, "/b").body(.text("hello")).matches(request(.post, "/b", body: "hello!")))
        #expect(RequestPattern(.post, "/b").body(.contains("ell")).matches(request(.post, "/b", body: "hello")))
        #expect(RequestPattern(.post, "/b").body(.matches("h.*o")).matches(request(.post, "/b", body: "hello")))
    }

    @Test func jsonBodies() {
        let body = #"{"name": "Ada", "roles": ["admin", "dev"], "address": {"city": "London", "zip": "N1"}, "age": 36}"#
        #expect(RequestPattern().body(.jsonPartial(["name": "Ada", "address": ["city": "London"]])).matches(request(.post, "/", body: body)))
        #expect(RequestPattern().body(.jsonPartial(["roles": ["dev"]])).matches(request(.post, "/", body: body)))
        #expect(!RequestPattern().body(.jsonPartial(["name": "Bob"])).matches(request(.post, "/", body: body)))
        #expect(!RequestPattern().body(.jsonPartial(["missing": nil])).matches(request(.post, "/", body: body)))
        #expect(RequestPattern().body(.json(["b": 1, "a": [true, nil]])).matches(request(.post, "/", body: #"{"a":[true,null],"b":1}"#)))
        #expect(!RequestPattern().body(.json(["b": 1])).matches(request(.post, "/", body: #"{"b":1,"c":2}"#)))
        #expect(!RequestPattern().body(.json(["b": 1])).matches(request(.post, "/", body: "not json")))
    }

    @Test func jsonPartialExplainsWhereItDiffers() {
        let actual = JSONValue(parsing: Data(#"{"a": {"b": [1, 2]}, "c": "x"}"#.utf8))!
        #expect(JSONPartialMatch.difference(expected: ["a": ["b": [2]]], actual: actual) == nil)
        #expect(JSONPartialMatch.difference(expected: ["a": ["b": [3]]], actual: actual) == "$.a.b[0]: no element contains 3")
        #expect(JSONPartialMatch.difference(expected: ["c": "y"], actual: actual) == "$.c: expected y, got x")
        #expect(JSONPartialMatch.difference(expected: ["d": 1], actual: actual) == "$.d: missing")
    }

    @Test func formBodies() {
        let matcher = RequestPattern(.post, "/login").body(.form(["user": "ada lovelace", "password": .present, "otp": .absent]))
        #expect(matcher.matches(request(.post, "/login", body: "user=ada+lovelace&password=x")))
        #expect(!matcher.matches(request(.post, "/login", body: "user=ada+lovelace")))
        #expect(!matcher.matches(request(.post, "/login", body: "user=ada+lovelace&password=x&otp=1")))
    }

    @Test func multipartBodies() {
        let body = "--XyZ\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nHello\r\n"
            + "--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\nContent-Type: text/plain\r\n\r\nfile body\r\n--XyZ--\r\n"
        let headers: HTTPHeaders = ["Content-Type": "multipart/form-data; boundary=XyZ"]
        let good = RequestPattern().body(.multipart([
            MultipartPartPattern(name: "title", body: "Hello"),
            MultipartPartPattern(name: "file", fileName: "a.txt", contentType: .contains("text"), body: .contains("file")),
        ]))
        #expect(good.matches(request(.post, "/u", headers: headers, body: body)))
        let wrongFile = RequestPattern().body(.multipart([MultipartPartPattern(name: "file", fileName: "b.txt")]))
        #expect(wrongFile.differences(request(.post, "/u", headers: headers, body: body)).map(\.description)
            == [#"body: multipart part "file": file name expected equal to "b.txt", got "a.txt""#])
        let missing = RequestPattern().body(.multipart([MultipartPartPattern(name: "other")]))
        #expect(!missing.matches(request(.post, "/u", headers: headers, body: body)))
        #expect(!good.matches(request(.post, "/u", headers: ["Content-Type": "text/plain"], body: body)))
    }

    @Test func differencesListEveryFieldThatDiffers() {
        let matcher = RequestPattern(.post, "/users").query("v", "2").header("Content-Type", "application/json").body(.jsonPartial(["name": "Ada"]))
        let differences = matcher.differences(request(.put, "/users", query: "v=1", headers: ["Content-Type": "text/plain"], body: #"{"name":"Bob"}"#))
        #expect(differences.map(\.field) == ["method", "query v", "header Content-Type", "body"])
        #expect(differences[0].description == "method: expected POST, got PUT")
        #expect(differences[1].description == #"query v: expected equal to "2", got "1""#)
        #expect(differences[3].description == "body: JSON at $.name: expected Ada, got Bob")
    }
}
