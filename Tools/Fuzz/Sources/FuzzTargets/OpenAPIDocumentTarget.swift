import Foundation
import TapedeckConformance

/// OpenAPI documents, JSON or YAML (`OpenAPIConformance(document:)`: the YAML limits, OpenAPIKit's decoding, `$ref`
/// resolution and the schema compiler), then the mock prepared from every accepted document (`OpenAPIMock`: the
/// value generator and its limits). An accepted document's mock answers a request for its first path.
enum OpenAPIDocumentTarget {
    static let target = FuzzTarget(
        name: "openapi-document",
        summary: "OpenAPIConformance(document:) and OpenAPIMock; the mock answers"
    ) { data in
        guard let conformance = try? OpenAPIConformance(document: data, source: "fuzz") else { return }
        let mock = OpenAPIMock(conformance, seed: 1)
        _ = mock.problems
        let answer = mock.respond(to: .init(method: "GET", url: "/"))
        FuzzCheck.require((200...599).contains(answer.statusCode), "the mock answered \(answer.statusCode)")
    }
}
