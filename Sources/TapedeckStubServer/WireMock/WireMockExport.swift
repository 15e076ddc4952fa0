import Foundation
import TapedeckCassette
import TapedeckCore

/// A cassette as WireMock stub mappings (`{"mappings": [...]}`, the JSON WireMock reads from its `mappings` folder
/// or `POST /__admin/mappings/import`): the engine of `tapedeck convert --to wiremock`.
///
/// Each interaction becomes a stub that matches as Tapedeck does by default, the method and the URL (`url`: path
/// and query, compared whole). Interactions that share a method and URL answer in their recorded order through a
/// scenario named after the request (`Started`, then `2`, `3`, …; the last answer repeats). A response keeps its
/// status, reason (`statusMessage`), headers (a repeated header as a list; `Content-Length`, `Transfer-Encoding`
/// and `Connection` left to WireMock, and `Content-Encoding` dropped for a body stored decoded) and body (`body` for
/// UTF-8 text, `base64Body` otherwise). A recorded transport error becomes a `fault`: `CONNECTION_RESET_BY_PEER` for
/// a lost connection, `EMPTY_RESPONSE` for any other.
///
/// ```swift
/// let mappings = try WireMockExport.mappings(for: cassette) { $0.inlineData ?? Data() }
/// let data = CassetteJSON.serialize(mappings, style: .pretty)
/// ```
public enum WireMockExport {
    /// The mappings document for `cassette`; `bodyData` reads a body's bytes (sidecar files included).
    public static func mappings(for cassette: Cassette, bodyData: (CassetteBody) throws -> Data) rethrows -> CassetteJSON {
        var stubs: [CassetteJSON] = []
        for (interaction, place) in zip(cassette.interactions, RequestPlace.places(in: cassette)) {
            var members: [CassetteJSON.Member] = [
                .init("name", .string("\(interaction.request.method.uppercased()) \(interaction.request.url)" + place.suffix)),
                .init("request", request(interaction.request)),
                .init("response", try response(interaction.outcome, bodyData: bodyData)),
            ]
            if place.total > 1 {
                members.append(.init("scenarioName", .string(place.key)))
                members.append(.init("requiredScenarioState", .string(place.position == 1 ? "Started" : String(place.position))))
                if place.position < place.total { members.append(.init("newScenarioState", .string(String(place.position + 1)))) }
            }
            stubs.append(.object(members))
        }
        return .object([.init("mappings", .array(stubs))])
    }

    private static func request(_ request: Interaction.Request) -> CassetteJSON {
        .object([.init("method", .string(request.method.uppercased())), .init("url", .string(URLParts(request.url).pathAndQuery))])
    }

    private static func response(_ outcome: Interaction.Outcome, bodyData: (CassetteBody) throws -> Data) rethrows -> CassetteJSON {
        switch outcome {
        case .failure(let failure):
            let fault = failure.code == URLError.Code.networkConnectionLost.rawValue ? "CONNECTION_RESET_BY_PEER" : "EMPTY_RESPONSE"
            return .object([.init("fault", .string(fault))])
        case .response(let response):
            var members: [CassetteJSON.Member] = [.init("status", .integer(response.statusCode))]
            if !response.reasonPhrase.isEmpty { members.append(.init("statusMessage", .string(response.reasonPhrase))) }
            var headers: [CassetteJSON.Member] = []
            for field in response.headers {
                let name = field.name.lowercased()
                if RequestPlace.framingHeaders.contains(name) || (name == "content-encoding" && response.body.contentEncoding != nil) { continue }
                if let index = headers.firstIndex(where: { $0.key.lowercased() == name }) {
                    let earlier = headers[index].value.arrayValue ?? [headers[index].value]
                    headers[index].value = .array(earlier + [.string(field.value)])
                } else {
                    headers.append(.init(field.name, .string(field.value)))
                }
            }
            if !headers.isEmpty { members.append(.init("headers", .object(headers))) }
            let body = try bodyData(response.body)
            if !body.isEmpty {
                if let text = String(validating: body, as: UTF8.self) {
                    members.append(.init("body", .string(text)))
                } else {
                    members.append(.init("base64Body", .string(body.base64EncodedString())))
                }
            }
            return .object(members)
        }
    }
}
