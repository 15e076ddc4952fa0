import Foundation
import Tapedeck
import Testing

@Suite struct HTTPRequestSerializerTests {
    typealias Support = RequestSerializationTestSupport

    @Test func postParametersBecomeAFormBody() async throws {
        let request = try Support.serializer().request(method: .post, url: Support.url, parameters: ["key": "value"])
        #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
        #expect(try await Support.text(of: request.body) == "key=value")
        #expect(request.url == Support.url)
    }

    @Test func postWithoutParametersSendsAnEmptyFormBody() async throws {
        let request = try Support.serializer().request(method: .post, url: Support.url, parameters: nil)
        #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
        guard case .data(let body) = request.body else {
            Issue.record("expected an in-memory body, got \(request.body)")
            return
        }
        #expect(body.isEmpty)
    }

    @Test func getParametersGoIntoTheQuery() throws {
        let request = try Support.serializer().request(method: .get, url: Support.url, parameters: ["key": "value"])
        #expect(request.url.query == "key=value")
        #expect(request.body.isEmpty)
        #expect(request.headers["Content-Type"] == nil)
    }

    @Test func getQueryIsPercentEscapedLikeAFNetworking() throws {
        let request = try Support.serializer().request(
            method: .get, url: Support.url, parameters: ["key": " :#[]@!$&'()*+,;=/?"])
        #expect(request.url.query == "key=%20%3A%23%5B%5D%40%21%24%26%27%28%29%2A%2B%2C%3B%3D/?")
    }

    @Test func emptyParametersLeaveNoTrailingQuestionMark() throws {
        let empty = try Support.serializer().request(method: .get, url: Support.url, parameters: [:])
        #expect(empty.url.absoluteString == "http://example.com")
        let none = try Support.serializer().request(method: .get, url: Support.url, parameters: nil)
        #expect(none.url.absoluteString == "http://example.com")
    }

    @Test func existingQueryIsExtendedWithAmpersand() throws {
        let url = URL(string: "http://example.com/path?a=1")!
        let request = try Support.serializer().request(method: .get, url: url, parameters: ["b": 2])
        #expect(request.url.absoluteString == "http://example.com/path?a=1&b=2")
    }

    @Test func queryIsInsertedBeforeAFragment() throws {
        let url = URL(string: "http://example.com/path?a=1#section")!
        let request = try Support.serializer().request(method: .get, url: url, parameters: ["b": 2])
        #expect(request.url.absoluteString == "http://example.com/path?a=1&b=2#section")
        #expect(request.url.fragment == "section")
    }

    @Test func nestedParametersInTheQuery() throws {
        let request = try Support.serializer().request(
            method: .get, url: Support.url, parameters: ["user": ["name": "ann", "tags": ["a", "b"]], "flag": nil])
        #expect(request.url.query == "flag&user%5Bname%5D=ann&user%5Btags%5D%5B%5D=a&user%5Btags%5D%5B%5D=b")
    }

    @Test(arguments: [HTTPMethod.get, .head, .delete, "get", "Delete"])
    func uriMethodsPutParametersInTheQuery(method: HTTPMethod) throws {
        let request = try Support.serializer().request(method: method, url: Support.url, parameters: ["k": "v"])
        #expect(request.url.query == "k=v")
        #expect(request.body.isEmpty)
    }

    @Test(arguments: [HTTPMethod.post, .put, .patch, .options, "PROPFIND"])
    func otherMethodsPutParametersInTheBody(method: HTTPMethod) async throws {
        let request = try Support.serializer().request(method: method, url: Support.url, parameters: ["k": "v"])
        #expect(request.url.query == nil)
        #expect(try await Support.text(of: request.body) == "k=v")
    }

    @Test func uriMethodsAreConfigurable() async throws {
        var serializer = Support.serializer()
        serializer.methodsEncodingParametersInURI = [.get]
        let request = try serializer.request(method: .delete, url: Support.url, parameters: ["k": "v"])
        #expect(request.url.query == nil)
        #expect(try await Support.text(of: request.body) == "k=v")
    }

    @Test func existingContentTypeIsKept() async throws {
        var original = HTTPRequest(method: .post, url: Support.url)
        original.headers["content-type"] = "text/plain"
        let request = try Support.serializer().serialize(original, parameters: ["k": "v"])
        #expect(request.headers.values(for: "Content-Type") == ["text/plain"])
        #expect(try await Support.text(of: request.body) == "k=v")
    }

    @Test func timeoutAppliesToNewRequestsOnly() throws {
        var serializer = Support.serializer()
        serializer.timeoutInterval = 7
        #expect(try serializer.request(method: .get, url: Support.url, parameters: nil).timeoutInterval == 7)
        let original = HTTPRequest(url: Support.url, timeoutInterval: 30)
        #expect(try serializer.serialize(original, parameters: nil).timeoutInterval == 30)
    }

    @Test func customQueryClosureReplacesTheEncoding() throws {
        var serializer = Support.serializer()
        serializer.queryStringSerialization = { _, parameters in
            (parameters.objectValue ?? [:]).sorted { $0.key < $1.key }
                .map { "\($0.key)**\($0.value.stringValue ?? "")" }.joined()
        }
        let request = try serializer.request(method: .get, url: Support.url, parameters: ["key": "value"])
        #expect(request.url.query == "key**value")
    }

    @Test func customQueryClosureFillsTheBodyForPost() async throws {
        var serializer = Support.serializer()
        serializer.queryStringSerialization = { request, _ in "method=\(request.method.rawValue)" }
        let request = try serializer.request(method: .post, url: Support.url, parameters: ["ignored": 1])
        #expect(try await Support.text(of: request.body) == "method=POST")
    }

    @Test func customQueryClosureIsNotCalledWithoutParameters() throws {
        var serializer = Support.serializer()
        serializer.queryStringSerialization = { _, _ in throw CocoaError(.featureUnsupported) }
        #expect(try serializer.request(method: .get, url: Support.url, parameters: nil).url == Support.url)
    }

    @Test func customQueryClosureErrorAbortsTheRequest() throws {
        struct ClosureFailure: Error, Equatable { let id: Int }
        var serializer = Support.serializer()
        serializer.queryStringSerialization = { _, _ in throw ClosureFailure(id: 7) }
        let url = URL(string: "http://example.com/items")!
        let error = Support.serializationError {
            _ = try serializer.request(method: .get, url: url, parameters: [:])
        }
        guard case .queryStringSerializationFailed(let failingURL, let underlying) = error else {
            Issue.record("expected queryStringSerializationFailed, got \(String(describing: error))")
            return
        }
        #expect(failingURL == url)
        #expect(underlying as? ClosureFailure == ClosureFailure(id: 7))
        #expect(error?.errorCode == 2)
    }

    @Test func urlStringsAreParsedAsAFNetworkingDoes() throws {
        let relative = try Support.serializer().request(method: .get, urlString: "url", parameters: ["k": "v"])
        #expect(relative.url.absoluteString == "url?k=v")
        let error = Support.serializationError {
            _ = try Support.serializer().request(method: .get, urlString: "", parameters: nil)
        }
        guard case .invalidURLString("") = error else {
            Issue.record("expected invalidURLString, got \(String(describing: error))")
            return
        }
    }
}
