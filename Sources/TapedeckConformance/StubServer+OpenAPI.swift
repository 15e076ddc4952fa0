import Foundation
import TapedeckCassette
import TapedeckCore
import TapedeckStubServer

/// A stub server that answers from an OpenAPI document.
extension StubServer {
    /// A stub server that answers as the OpenAPI document in `openAPI` describes (see ``OpenAPIMock``): documented
    /// examples or values generated from the schemas (the same for the same `seed`), `400` with the violations for
    /// requests that break the document, `404`/`405` for paths and methods it lacks. Stubs added later answer first,
    /// so a test can still pin one operation's answer.
    ///
    /// ```swift
    /// let server = try StubServer(openAPI: URL(fileURLWithPath: "openapi.yaml"))
    /// let pets = try await CurlTransport().send(HTTPRequest(url: server.url("/pets")))
    /// ```
    ///
    /// - Throws: ``OpenAPIDocumentError`` for a document that cannot be read; `StubServer.StartError` when the
    ///   server cannot start.
    public convenience init(openAPI: URL, seed: UInt64 = 0, configuration: Configuration = Configuration()) throws {
        let mock = try OpenAPIMock(contentsOf: openAPI, seed: seed)
        try self.init(configuration: configuration)
        serve(mock)
    }

    /// Answers every request no other stub matches from `mock`; returns the stub's id (remove it to stop).
    @discardableResult
    public func serve(_ mock: OpenAPIMock) -> Stub.ID {
        add(Stub(id: "openapi-\(UUID().uuidString)", name: "OpenAPI document", RequestPattern(),
                 priority: Self.openAPIPriority, responder: .handler { request in
            let query = request.query.map { "?" + $0 } ?? ""
            let answer = mock.respond(to: Interaction.Request(method: request.method.rawValue, url: request.path + query,
                                                              headers: request.headers, body: CassetteBody(request.body)))
            return StubResponse(status: answer.statusCode, headers: answer.headers, body: .data(answer.body.inlineData ?? Data()))
        }))
    }

    /// Below every stub's default priority, so stubs added by hand answer first.
    static let openAPIPriority = 1_000_000
}
