import Foundation
import Testing
@testable import TapedeckOpenAPI

/// Joining an OpenAPI request path to a server URL.
@Suite struct OpenAPIURLTests {
    @Test(arguments: [
        ("http://127.0.0.1:8080", "/get?name=Ada", "http://127.0.0.1:8080/get?name=Ada"),
        ("http://127.0.0.1:8080/", "/get", "http://127.0.0.1:8080/get"),
        ("https://api.example.com/v1", "/users/7", "https://api.example.com/v1/users/7"),
        ("https://api.example.com/v1/", "/users?page=2&tag=a&tag=b", "https://api.example.com/v1/users?page=2&tag=a&tag=b"),
        ("https://api.example.com/v1?key=k", "/users?page=2", "https://api.example.com/v1/users?key=k&page=2"),
        ("https://api.example.com/v1#top", "/a%20b/c%2Fd", "https://api.example.com/v1/a%20b/c%2Fd"),
        ("https://api.example.com/v1", "", "https://api.example.com/v1"),
    ])
    func joinsByConcatenation(base: String, path: String, expected: String) throws {
        let joined = try OpenAPIURL.joining(path, to: try #require(URL(string: base)))
        #expect(joined.absoluteString == expected)
    }

    @Test func refusesAPathWithoutLeadingSlash() throws {
        let base = try #require(URL(string: "https://api.example.com/v1"))
        #expect(throws: OpenAPITransportError.invalidURL(baseURL: base, path: "users", reason: "the path must start with \"/\"")) {
            try OpenAPIURL.joining("users", to: base)
        }
    }

    @Test func refusesABaseURLThatIsNotHTTP() throws {
        let base = try #require(URL(string: "ftp://files.example.com/pub"))
        let error = #expect(throws: OpenAPITransportError.self) { try OpenAPIURL.joining("/get", to: base) }
        #expect(error?.description == "cannot join the request path \"/get\" to the base URL ftp://files.example.com/pub: the base URL's scheme must be http or https")
    }

    @Test func refusesABaseURLWithoutHost() throws {
        let base = URL(fileURLWithPath: "/tmp/x")
        #expect(throws: OpenAPITransportError.self) { try OpenAPIURL.joining("/get", to: base) }
        let hostless = try #require(URL(string: "http:/relative"))
        let error = #expect(throws: OpenAPITransportError.self) { try OpenAPIURL.joining("/get", to: hostless) }
        #expect(error?.description.hasSuffix("the base URL has no host") == true)
    }
}
