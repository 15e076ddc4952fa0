import Foundation
import Tapedeck
import Testing
import TapedeckTestSupport

@Suite struct MultipartRequestTests {
    typealias Support = RequestSerializationTestSupport

    @Test func parametersBecomeFieldsBeforeConstructedParts() async throws {
        let request = try Support.serializer().multipartRequest(
            method: .post, url: Support.url, parameters: ["b": ["c": true], "a": 1, "n": nil], boundary: "B"
        ) { form in
            form.append("last", name: "z")
        }
        let field = { (name: String, value: String) in
            "Content-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)"
        }
        let expected =
            "--B\r\n" + field("a", "1") + "\r\n--B\r\n" + field("b[c]", "1") + "\r\n--B\r\n" + field("n", "")
            + "\r\n--B\r\n" + field("z", "last") + "\r\n--B--\r\n"
        #expect(try await Support.text(of: request.body) == expected)
        #expect(request.headers["Content-Type"] == "multipart/form-data; boundary=B")
        #expect(request.headers["Content-Length"] == String(expected.utf8.count))
        #expect(request.body.knownLength == Int64(expected.utf8.count))
        #expect(request.headers["Accept-Language"] == "en;q=1")
        #expect(request.url == Support.url)
    }

    @Test func randomBoundaryIsUsedByDefault() throws {
        let request = try Support.serializer().multipartRequest(method: .put, url: Support.url, parameters: ["a": 1])
        #expect(request.headers["Content-Type"]?.hasPrefix("multipart/form-data; boundary=Boundary+") == true)
    }

    @Test(arguments: [HTTPMethod.get, .head, "get", "Head"])
    func getAndHeadAreRefused(method: HTTPMethod) {
        let error = Support.serializationError {
            _ = try Support.serializer().multipartRequest(method: method, url: Support.url, parameters: ["a": 1])
        }
        guard case .multipartNotAllowed(let refused, let url) = error else {
            Issue.record("expected multipartNotAllowed, got \(String(describing: error))")
            return
        }
        #expect(refused == method)
        #expect(url == Support.url)
        #expect((error! as NSError).code == 1)
    }

    @Test func emptyFormLeavesTheRequestAsBuilt() async throws {
        let request = try Support.serializer().multipartRequest(method: .post, url: Support.url, parameters: nil)
        #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
        #expect(try await Support.bytes(of: request.body).isEmpty)
    }

    @Test func errorsFromTheBuildingClosureAreRethrown() throws {
        let missing = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString).png")
        let error = Support.serializationError {
            _ = try Support.serializer().multipartRequest(method: .post, url: Support.url, parameters: nil) { form in
                try form.append(fileURL: missing, name: "f")
            }
        }
        guard case .fileNotReadable(missing, _) = error else {
            Issue.record("expected fileNotReadable, got \(String(describing: error))")
            return
        }
    }

    @Test func jsonSerializerBuildsMultipartRequestsToo() async throws {
        let serializer = JSONRequestSerializer(base: Support.serializer())
        let request = try serializer.multipartRequest(
            method: .post, url: Support.url, parameters: ["k": "v"], boundary: "B")
        #expect(request.headers["Content-Type"] == "multipart/form-data; boundary=B")
        #expect(
            try await Support.text(of: request.body)
                == "--B\r\nContent-Disposition: form-data; name=\"k\"\r\n\r\nv\r\n--B--\r\n")
    }

    @Test func writingTheBodyToAFileKeepsTheHeaders() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let serializer = Support.serializer()
        let multipart = try serializer.multipartRequest(
            method: .post, url: Support.url, parameters: ["a": "b"], boundary: "B"
        ) { form in
            form.append(
                Data(repeating: 0x5A, count: 200_000), name: "blob", fileName: "blob.bin",
                mimeType: "application/octet-stream")
        }
        let fileURL = directory.file("form.body")
        let staged = try await serializer.request(multipart, writingBodyToFile: fileURL)
        guard case .file(let stagedURL) = staged.body else {
            Issue.record("expected a file body, got \(staged.body)")
            return
        }
        #expect(stagedURL == fileURL)
        #expect(staged.headers == multipart.headers)
        #expect(try Data(contentsOf: fileURL) == (try await Support.bytes(of: multipart.body)))
        #expect(staged.body.knownLength == multipart.body.knownLength)
    }
}
