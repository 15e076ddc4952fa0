import Foundation
import Tapedeck
import TapedeckTestSupport
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

    /// The same parameters give the same bytes whatever order their dictionaries iterate in (which changes with
    /// capacity here, and with the hash seed from one process to the next), and Python's plistlib reads them back.
    @Test(arguments: [PropertyListRequestSerializer.Format.xml, .binary])
    func keysAreWrittenSortedSoTheBytesAreStable(format: PropertyListRequestSerializer.Format) async throws {
        let serializer = PropertyListRequestSerializer(base: Support.serializer(), format: format)
        func parameters(capacity: Int) -> JSONValue {
            var members = [String: JSONValue](minimumCapacity: capacity)
            var inner = [String: JSONValue](minimumCapacity: capacity)
            for index in 0..<24 { inner["k\(index)"] = .number(Double(index)) }
            for index in 0..<24 { members["key\(index)"] = index % 3 == 0 ? .object(inner) : .string("v\(index)") }
            members["reals"] = [0.5, -2.25, 1e300]
            members["flag"] = true
            return .object(members)
        }
        var bodies: [Data] = []
        for capacity in [0, 64, 1_000] {
            let request = try serializer.request(method: .post, url: Support.url, parameters: parameters(capacity: capacity))
            bodies.append(try await Support.bytes(of: request.body))
            #expect(try await decode(request.body) == parameters(capacity: 0))
        }
        #expect(Set(bodies).count == 1, "the bytes changed with the dictionaries' order")
        let body = try #require(bodies.first)
        let script = "import plistlib, sys; d = plistlib.loads(sys.stdin.buffer.read()); "
            + "print(list(d) == sorted(d), d['key3']['k5'], d['key1'], d['reals'][1], d['flag'])"
        let python = try #require(ExternalCommand.find("python3"), "python3 is installed by the test command")
        let result = try await ExternalCommand.run(python, ["-c", script], input: body)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(String(decoding: result.standardOutput, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                == "True 5 v1 -2.25 True")
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
