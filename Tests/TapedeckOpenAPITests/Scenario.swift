import Foundation
import OpenAPIRuntime
import Testing
import TapedeckStubServer

/// What the generated client saw of one pass over the fixture's operations, to compare one transport with another.
struct ScenarioOutcome: Equatable {
    var echoedName: String?
    var echoedTags: [String]?
    var echoedTrace: String?
    var postedTitle: String?
    var postedTags: [String]?
    var uploadedText: String?
    var teapot: String
    var undocumentedStatus: Int?
    var streamedBytes: Data
}

/// Runs every operation of the fixture once through `client` (httpbin answering) and checks each answer.
func runScenario(_ client: Client) async throws -> ScenarioOutcome {
    let echo = try await client.getEcho(
        query: .init(name: "Ada Lovelace", tag: ["x", "y z"]), headers: .init(xTrace: "trace-1")
    ).ok.body.json
    let args = echo.args?.additionalProperties
    let posted = try await client.postNote(body: .json(.init(title: "Hello", tags: ["a", "b"]))).ok.body.json
    let uploaded = try await client.uploadBlob(body: .binary(HTTPBody("raw bytes, sent as they are"))).ok.body.json

    let teapot: String
    switch try await client.getStatus(path: .init(code: 418)) {
    case .code418(let answer): teapot = try await String(collecting: try answer.body.plainText, upTo: 1024)
    case let other: throw ScenarioError.unexpected("418 answered as \(other)")
    }
    var undocumentedStatus: Int?
    if case .undocumented(let status, _) = try await client.getStatus(path: .init(code: 503)) { undocumentedStatus = status }

    let body = try await client.streamBytes(path: .init(n: 100_000), query: .init(chunkSize: 4096)).ok.body.binary
    var streamed = Data()
    for try await chunk in body { streamed.append(contentsOf: chunk) }
    return ScenarioOutcome(
        echoedName: args?["name"]?.value as? String,
        echoedTags: (args?["tag"]?.value as? [(any Sendable)?])?.compactMap { $0 as? String },
        echoedTrace: echo.headers.additionalProperties["X-Trace"],
        postedTitle: posted.json?.title, postedTags: posted.json?.tags,
        uploadedText: uploaded.data,
        teapot: teapot, undocumentedStatus: undocumentedStatus,
        streamedBytes: streamed
    )
}

/// Checks an outcome against what httpbin answers.
func expectHttpbinAnswers(_ outcome: ScenarioOutcome, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(outcome.echoedName == "Ada Lovelace", sourceLocation: sourceLocation)
    #expect(outcome.echoedTags == ["x", "y z"], sourceLocation: sourceLocation)
    #expect(outcome.echoedTrace == "trace-1", sourceLocation: sourceLocation)
    #expect(outcome.postedTitle == "Hello", sourceLocation: sourceLocation)
    #expect(outcome.postedTags == ["a", "b"], sourceLocation: sourceLocation)
    #expect(outcome.uploadedText == "raw bytes, sent as they are", sourceLocation: sourceLocation)
    #expect(outcome.teapot == "I'm a teapot\n", sourceLocation: sourceLocation)
    #expect(outcome.undocumentedStatus == 503, sourceLocation: sourceLocation)
    #expect(outcome.streamedBytes == StubBody.generatedBytes(from: 0, count: 100_000), sourceLocation: sourceLocation)
}

enum ScenarioError: Error {
    case unexpected(String)
}
