import Foundation
import TapedeckStubServer

/// WireMock stub mappings (`WireMockMappings.stubs(from:)`: one mapping, an array or `{"mappings": [...]}`), as
/// `serve --stubs` and the admin API read them. Every stub it makes lists as JSON.
enum WireMockMappingTarget {
    static let target = FuzzTarget(
        name: "wiremock-mapping",
        summary: "WireMockMappings.stubs(from:); each stub encodes"
    ) { data in
        guard let stubs = try? WireMockMappings.stubs(from: data) else { return }
        for stub in stubs { _ = try? JSONEncoder().encode(stub) }
    }
}
