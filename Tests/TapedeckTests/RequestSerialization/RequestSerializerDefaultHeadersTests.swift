import Foundation
import Tapedeck
import Testing

@Suite struct RequestSerializerDefaultHeadersTests {
    typealias Support = RequestSerializationTestSupport

    @Test func acceptLanguageCarriesQualityValues() {
        #expect(HTTPRequestSerializer.acceptLanguage(for: ["en", "fr"]) == "en;q=1, fr;q=0.9")
        #expect(HTTPRequestSerializer.acceptLanguage(for: ["en-US"]) == "en-US;q=1")
        #expect(HTTPRequestSerializer.acceptLanguage(for: []) == nil)
    }

    @Test func acceptLanguageStopsAfterSixLanguages() {
        let languages = ["a", "b", "c", "d", "e", "f", "g", "h"]
        #expect(
            HTTPRequestSerializer.acceptLanguage(for: languages)
                == "a;q=1, b;q=0.9, c;q=0.8, d;q=0.7, e;q=0.6, f;q=0.5")
    }

    @Test func freshSerializerSendsAcceptLanguageAndUserAgent() throws {
        let serializer = HTTPRequestSerializer(preferredLanguages: ["de", "en"])
        let request = try serializer.request(method: .get, url: Support.url, parameters: nil)
        #expect(request.headers["Accept-Language"] == "de;q=1, en;q=0.9")
        #expect(request.headers["User-Agent"] == HTTPRequestSerializer.defaultUserAgent)
    }

    @Test func defaultUserAgentNamesTapedeckAndThePlatform() {
        #expect(HTTPRequestSerializer.defaultUserAgent.hasPrefix("Tapedeck/\(TapedeckVersion.current) ("))
        #if os(Linux)
            #expect(HTTPRequestSerializer.defaultUserAgent == "Tapedeck/\(TapedeckVersion.current) (Linux; Swift)")
        #endif
    }

    @Test func emptyLanguagesAndNilUserAgentSendNeither() throws {
        let serializer = HTTPRequestSerializer(preferredLanguages: [], userAgent: nil)
        let request = try serializer.request(method: .get, url: Support.url, parameters: nil)
        #expect(request.headers.isEmpty)
    }

    @Test func requestHeadersWinOverDefaults() throws {
        var serializer = Support.serializer()
        serializer.defaultHeaders["Accept"] = "application/json"
        serializer.defaultHeaders["X-Default"] = "yes"
        var original = HTTPRequest(url: Support.url)
        original.headers["accept"] = "text/html"
        original.headers["User-Agent"] = "Mine/2"
        let request = try serializer.serialize(original, parameters: nil)
        #expect(request.headers.values(for: "Accept") == ["text/html"])
        #expect(request.headers.values(for: "User-Agent") == ["Mine/2"])
        #expect(request.headers["X-Default"] == "yes")
        #expect(request.headers["Accept-Language"] == "en;q=1")
    }

    @Test func defaultHeaderCanBeSetReadAndRemoved() throws {
        var serializer = Support.serializer()
        serializer.defaultHeaders["Set-Header"] = "Actual Value"
        #expect(serializer.defaultHeaders["Set-Header"] == "Actual Value")
        #expect(serializer.defaultHeaders["Unset-Header"] == nil)
        serializer.defaultHeaders["Set-Header"] = nil
        #expect(!serializer.defaultHeaders.contains("Set-Header"))
        let request = try serializer.request(method: .get, url: Support.url, parameters: nil)
        #expect(request.headers["Set-Header"] == nil)
    }

    @Test func basicAuthorizationIsBase64OfUserColonPassword() throws {
        var serializer = Support.serializer()
        serializer.setAuthorization(username: "user", password: "pass")
        #expect(serializer.defaultHeaders["Authorization"] == "Basic dXNlcjpwYXNz")
        let request = try serializer.request(method: .get, url: Support.url, parameters: nil)
        #expect(request.headers["Authorization"] == "Basic dXNlcjpwYXNz")
    }

    @Test func basicAuthorizationEncodesUTF8() {
        var serializer = Support.serializer()
        serializer.setAuthorization(username: "zoë", password: "p:w")
        let encoded = Data("zoë:p:w".utf8).base64EncodedString()
        #expect(serializer.defaultHeaders["Authorization"] == "Basic \(encoded)")
    }

    @Test func clearingAuthorizationRemovesTheHeader() throws {
        var serializer = Support.serializer()
        serializer.setAuthorization(username: "user", password: "pass")
        serializer.clearAuthorization()
        let request = try serializer.request(method: .get, url: Support.url, parameters: nil)
        #expect(request.headers["Authorization"] == nil)
    }
}
