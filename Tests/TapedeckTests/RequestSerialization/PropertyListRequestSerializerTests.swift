import Foundation
import Tapedeck
import Testing

@Suite struct PropertyListRequestSerializerTests {
    typealias Support = RequestSerializationTestSupport

    private func decode(_ body: HTTPRequestBody) async throws -> JSONValue? {
        let data = try await Support.bytes(of: body)
        let object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        return JSONValue(foundationObject: object)
    }

    @Test(arguments: [PropertyListRequestSerializer.Format.xml, .binary])
    func encodesParametersAsAPropertyList(format: PropertyListRequestSerializer.Format) async throws {
        let serializer = PropertyListRequestSerializer(base: Support.serializer(), format: format)
        let parameters: JSONValue = ["key": "value", "count": 3, "list": ["a", 1.5]]
        let request = try serializer.request(method: .post, url: Support.url, parameters: parameters)
        #expect(request.headers["Content-Type"] == "application/x-plist")
        let data = try await Support.bytes(of: request.body)
        let magic = format == .xml ? "<?xml" : "bplist00"
        #expect(data.starts(with: Data(magic.utf8)))
        #expect(try await decode(request.body) == parameters)
    }

    @Test func uriMethodsStillUseTheQueryString() throws {
        let serializer = PropertyListRequestSerializer(base: Support.serializer())
        let request = try serializer.request(method: .get, url: Support.url, parameters: ["key": "value"])
        #expect(request.url.query == "key=value")
        #expect(request.body.isEmpty)
    }

    @Test func noParametersLeaveTheBodyAlone() throws {
        let serializer = PropertyListRequestSerializer(base: Support.serializer())
        let request = try serializer.request(method: .post, url: Support.url, parameters: nil)
        #expect(request.body.isEmpty)
        #expect(request.headers["Content-Type"] == nil)
    }

    @Test(arguments: [JSONValue.object(["key": .null]), .array([1, .null]), .null])
    func parametersWithNullAreRefused(parameters: JSONValue) {
        let serializer = PropertyListRequestSerializer(base: Support.serializer())
        let error = Support.serializationError {
            _ = try serializer.request(method: .post, url: Support.url, parameters: parameters)
        }
        guard case .invalidPropertyListParameters(let failingURL, _) = error else {
            Issue.record("expected invalidPropertyListParameters, got \(String(describing: error))")
            return
        }
        #expect(failingURL == Support.url)
        let nsError = error! as NSError
        #expect(nsError.domain == RequestSerializationError.errorDomain)
        #expect(nsError.code == 3851)
    }

    @Test func baseSettingsAreReachableThroughTheSerializer() throws {
        var serializer = PropertyListRequestSerializer(base: Support.serializer())
        serializer.timeoutInterval = 9
        serializer.setAuthorization(username: "a", password: "b")
        let request = try serializer.request(method: .put, url: Support.url, parameters: ["k": "v"])
        #expect(request.timeoutInterval == 9)
        #expect(request.headers["Authorization"] == "Basic YTpi")
    }
}
