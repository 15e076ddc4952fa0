import Foundation
import TapedeckCassette
import TapedeckCore

extension AdminAPI {
    /// The body of `POST /__admin/cassettes`.
    struct CassetteRequest: Decodable {
        var path: String
        var origin: String?
        var allowPlaybackRepeats: Bool?
    }

    /// `POST` loads and serves a cassette, `GET` reports what the served one played, `DELETE` stops serving it.
    func cassettes(_ request: RecordedRequest) -> StubResponse {
        switch request.method {
        case .post:
            return loadCassette(request.body)
        case .get:
            guard case .cassette(let served) = fallback.value else { return Self.error("no cassette is being served", status: 404) }
            return Self.json(SummaryDocument(served.summary))
        case .delete:
            guard case .cassette(let served) = fallback.value else { return Self.error("no cassette is being served", status: 404) }
            _ = fallback.remove()
            return Self.json(SummaryDocument(served.summary))
        default:
            return Self.error("\(request.method) is not allowed on \(configuration.pathPrefix)/cassettes; use POST, GET or DELETE", status: 405)
        }
    }

    private func loadCassette(_ body: Data) -> StubResponse {
        let parsed: CassetteRequest
        do {
            parsed = try JSONDecoder().decode(CassetteRequest.self, from: body)
        } catch let error as DecodingError {
            return Self.error(StubDefinitionError(error).description
                + #" (the body must be {"path": "/abs/cassette.json", "origin": "http://host:port", "allowPlaybackRepeats": false})"#,
                status: 400)
        } catch {
            return Self.error("the body is not JSON: \(error)", status: 400)
        }
        guard !parsed.path.isEmpty else { return Self.error(#"$.path: give the cassette file's path, e.g. "/tmp/login.json""#, status: 400) }
        var origin: URL?
        if let text = parsed.origin {
            guard let url = URL(string: text), ServedCassette.origin(of: url.absoluteString) != nil else {
                return Self.error("$.origin: \"\(text)\" is not an absolute URL such as http://api.example.com", status: 400)
            }
            origin = url
        }
        var configuration = CassetteConfiguration()
        if let repeats = parsed.allowPlaybackRepeats { configuration.allowPlaybackRepeats = repeats }
        let url = URL(fileURLWithPath: parsed.path)
        do {
            let served = try ServedCassette(url: url, configuration: configuration, origin: origin)
            fallback.install(.cassette(served))
            return Self.json(SummaryDocument(served.summary), status: 201)
        } catch {
            if case .cassetteNotFound = error { return Self.error(error.description, status: 404) }
            return Self.error(error.description, status: 400)
        }
    }
}

/// A served cassette's summary as JSON.
struct SummaryDocument: Encodable {
    var cassette: String
    var interactions: Int
    var played: Int
    var unplayed: [String]
    var unmatched: [String]

    init(_ summary: CassetteServingSummary) {
        cassette = summary.file
        interactions = summary.interactionCount
        played = summary.playedCount
        unplayed = summary.unplayed
        unmatched = summary.unmatched
    }
}
