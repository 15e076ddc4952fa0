import Foundation
import TapedeckCassette
import TapedeckCurl
import TapedeckStubServer

/// What a test compares between a live and a replayed response.
struct ResponseSnapshot: Equatable {
    var status: Int
    var headers: HTTPHeaders
    var body: Data
    var url: URL

    init(_ response: HTTPResponse, body: Data? = nil) {
        status = response.statusCode
        headers = response.headers
        self.body = body ?? response.data ?? Data()
        url = response.head.url
    }
}

/// An interaction with a plain response, for pure tests.
func interaction(_ method: String = "GET", _ url: String, headers: HTTPHeaders = [:], body: String = "",
                 status: Int = 200, responseBody: String = "") -> Interaction {
    Interaction(
        request: .init(method: method, url: url, headers: headers, body: CassetteBody(Data(body.utf8))),
        outcome: .response(.init(statusCode: status, reasonPhrase: "OK", headers: ["Content-Type": "text/plain"],
                                 body: CassetteBody(Data(responseBody.utf8)))),
        recordedAt: Date(timeIntervalSince1970: 1_700_000_000.123))
}

/// A live request value for the player.
func live(_ method: String = "GET", _ url: String, headers: HTTPHeaders = [:], body: String = "") -> Interaction.Request {
    Interaction.Request(method: method, url: url, headers: headers, body: CassetteBody(Data(body.utf8)))
}

/// The played response body as text, or `nil` on a miss.
func playedBody(_ result: Result<CassettePlayer.Playback, CassetteError>) -> String? {
    guard case .success(let playback) = result, let data = playback.interaction.response?.body.inlineData else { return nil }
    return String(decoding: data, as: UTF8.self)
}
