import Foundation
import Testing
import TapedeckCassette
import TapedeckCore

/// A token that names a place in a sequence (a page, a progress stream, a sync point) is handed out by the server to
/// be sent back and grants nothing: it stays as recorded, everywhere in the cassette. Credentials named like tokens
/// are still redacted.
@Suite struct PositionTokenRedactionTests {
    private static let value = "c2VjcmV0LWxvb2tpbmctdmFsdWU"

    @Test(arguments: [
        "progressToken", "nextPageToken", "pageToken", "continuationToken", "next_page_token", "page_token",
        "continuation_token", "syncToken", "sync_token", "NEXT_PAGE_TOKEN", "X-Next-Page-Token", "prevPageToken",
    ])
    func positionTokensStay(name: String) {
        #expect(!Redaction.default.isSensitiveParameter(name, value: Self.value))
        #expect(!Redaction.default.isSensitiveHeader(name, value: Self.value))
    }

    @Test(arguments: [
        "access_token", "refresh_token", "id_token", "csrf_token", "session_token", "api_token", "auth_token", "token",
        "accessToken", "next_access_token", "pageTokenSecret", "X-Session-Token", "reset_token",
    ])
    func credentialsStillGo(name: String) {
        #expect(Redaction.default.isSensitiveParameter(name, value: Self.value))
    }

    @Test func aNameListedAsSecretIsRedactedWhateverItsShape() {
        var redaction = Redaction()
        redaction.parameterNames.insert("pagetoken")
        #expect(redaction.isSensitiveParameter("pageToken", value: Self.value))
    }

    /// An MCP `tools/call` with a progress token, and the progress notification that echoes it: both keep it, so the
    /// cassette does not contradict itself.
    @Test func anMCPProgressTokenStaysInTheCallAndItsNotification() throws {
        let call = #"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"slow","arguments":{},"_meta":{"progressToken":"pt-7f3a9c2e1b5d"}}}"#
        let notification = #"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"pt-7f3a9c2e1b5d","progress":1,"total":2}}"#
        let answer = "event: message\ndata: \(notification)\n\n"
        var cassette = Cassette(interactions: [
            Interaction(
                request: .init(method: "POST", url: "http://127.0.0.1:8080/mcp",
                               headers: ["Content-Type": "application/json", "Authorization": "Bearer sk-live-0123456789abcdef"],
                               body: CassetteBody(Data(call.utf8))),
                outcome: .response(.init(statusCode: 200, headers: ["Content-Type": "text/event-stream"], body: CassetteBody(Data(answer.utf8))))),
            Interaction(
                request: .init(method: "POST", url: "http://127.0.0.1:8080/mcp", headers: ["Content-Type": "application/json"],
                               body: CassetteBody(Data(notification.utf8))),
                outcome: .response(.init(statusCode: 202))),
        ])
        Redaction.default.redact(&cassette)
        #expect(cassette.interactions[0].request.headers["Authorization"] != "Bearer sk-live-0123456789abcdef", "redaction ran")
        #expect(cassette.interactions[0].request.body.inlineData == Data(call.utf8))
        #expect(cassette.interactions[0].response?.body.inlineData == Data(answer.utf8))
        #expect(cassette.interactions[1].request.body.inlineData == Data(notification.utf8))
    }

    @Test func pageTokensStayAndCredentialsGoInTheSameExchange() throws {
        let url = "http://127.0.0.1:8080/v1/files?pageToken=CiAKGjBpNDd2Nmp2Zml2cXRwYjBpOXA&access_token=ya29.a0AfB_byC1&page_size=50"
        let body = #"{"files":[],"nextPageToken":"CiAKGjBpNDd2Nmp2Zml2cXRwYjBpOXB","id_token":"eyJhbGciOiJSUzI1NiJ9.e30.c2ln","#
            + #""csrf_token":"d41d8cd98f00b204e980","session_token":"9f86d081884c7d65","api_token":"tok-5e884898da2804","#
            + #""auth_token":"b6589fc6ab0dc82c","refresh_token":"1//0gLx4mQ8z"}"#
        var interaction = Interaction(
            request: .init(method: "GET", url: url),
            outcome: .response(.init(statusCode: 200, headers: ["Content-Type": "application/json", "X-Next-Page-Token": "CiAKGjBpNDd2Nmp2Zml2cXRwYjBpOXB"],
                                     body: CassetteBody(Data(body.utf8)))))
        Redaction.default.redact(&interaction)
        let query = try #require(URLComponents(string: interaction.request.url)?.queryItems)
        #expect(query.first { $0.name == "pageToken" }?.value == "CiAKGjBpNDd2Nmp2Zml2cXRwYjBpOXA")
        #expect(query.first { $0.name == "access_token" }?.value == Redaction.placeholder)
        #expect(query.first { $0.name == "page_size" }?.value == "50")
        let response = try #require(interaction.response)
        #expect(response.headers["X-Next-Page-Token"] == "CiAKGjBpNDd2Nmp2Zml2cXRwYjBpOXB")
        let json = try #require(response.body.inlineData.flatMap { try JSONSerialization.jsonObject(with: $0) as? [String: Any] })
        #expect(json["nextPageToken"] as? String == "CiAKGjBpNDd2Nmp2Zml2cXRwYjBpOXB")
        for name in ["id_token", "csrf_token", "session_token", "api_token", "auth_token", "refresh_token"] {
            #expect(json[name] as? String == Redaction.placeholder, "\(name) is a credential")
        }
    }
}
