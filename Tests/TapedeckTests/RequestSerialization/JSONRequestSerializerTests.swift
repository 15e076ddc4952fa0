import Foundation
import Tapedeck
import Testing

@Suite struct JSONRequestSerializerTests {
    typealias Support = RequestSerializationTestSupport

    private func serializer() -> JSONRequestSerializer {
        JSONRequestSerializer(base: Support.serializer())
    }

    @Test func encodesAnObjectAsTheBody() async throws {
        let request = try serializer().request(method: .post, url: Support.url, parameters: ["key": "value"])
        #expect(try await Support.text(of: request.body) == #"{"key":"value"}"#)
        #expect(request.headers["Content-Type"] == "application/json")
    }

    @Test func encodesAnArrayAsTheBody() async throws {
        let request = try serializer().request(method: .post, url: Support.url, parameters: [["key": "value"]])
        #expect(try await Support.text(of: request.body) == #"[{"key":"value"}]"#)
    }

    @Test func writingOptionsAreApplied() async throws {
        let serializer = JSONRequestSerializer(base: Support.serializer(), writingOptions: [.sortedKeys])
        let parameters: JSONValue = ["b": [1, 2.5, true, nil], "a": "x", "c": ["z": false]]
        let request = try serializer.request(method: .put, url: Support.url, parameters: parameters)
        #expect(try await Support.text(of: request.body) == #"{"a":"x","b":[1,2.5,true,null],"c":{"z":false}}"#)
    }

    @Test func uriMethodsStillUseTheQueryString() throws {
        let request = try serializer().request(method: .get, url: Support.url, parameters: ["key": "value"])
        #expect(request.url.query == "key=value")
        #expect(request.body.isEmpty)
        #expect(request.headers["Content-Type"] == nil)
    }

    @Test func noParametersLeaveTheBodyAndContentTypeAlone() throws {
        let request = try serializer().request(method: .post, url: Support.url, parameters: nil)
        #expect(request.body.isEmpty)
        #expect(request.headers["Content-Type"] == nil)
        #expect(request.headers["Accept-Language"] == "en;q=1")
    }

    @Test func existingContentTypeIsKept() throws {
        var original = HTTPRequest(method: .post, url: Support.url)
        original.headers["Content-Type"] = "application/vnd.api+json"
        let request = try serializer().serialize(original, parameters: ["a": 1])
        #expect(request.headers.values(for: "Content-Type") == ["application/vnd.api+json"])
    }

    @Test(arguments: [
        JSONValue.number(.nan), .number(.infinity), ["key": .number(-.infinity)], ["list": [1, .number(.nan)]],
        "top-level string", 42, true, nil,
    ])
    func invalidJSONFailsWithCode1016(parameters: JSONValue) {
        let url = URL(string: "http://example.com/json")!
        let error = Support.serializationError {
            _ = try serializer().request(method: .post, url: url, parameters: parameters)
        }
        guard case .invalidJSONParameters(let failingURL, _) = error else {
            Issue.record("expected invalidJSONParameters, got \(String(describing: error))")
            return
        }
        #expect(failingURL == url)
        let nsError = error! as NSError
        #expect(nsError.domain == "com.tapedeck.error.serialization.request")
        #expect(nsError.code == -1016)
        #expect(nsError.code == NSURLErrorCannotDecodeContentData)
        #expect(nsError.localizedFailureReason == "The `parameters` argument is not valid JSON.")
        #expect(nsError.userInfo[NSURLErrorFailingURLErrorKey] as? URL == url)
    }

    @Test func baseSettingsAreReachableThroughTheSerializer() throws {
        var serializer = serializer()
        serializer.timeoutInterval = 5
        serializer.defaultHeaders["X-Key"] = "1"
        serializer.setAuthorization(username: "user", password: "pass")
        let request = try serializer.request(method: .post, url: Support.url, parameters: [:])
        #expect(request.timeoutInterval == 5)
        #expect(request.headers["X-Key"] == "1")
        #expect(request.headers["Authorization"] == "Basic dXNlcjpwYXNz")
        serializer.clearAuthorization()
        #expect(serializer.base.defaultHeaders["Authorization"] == nil)
    }
}
