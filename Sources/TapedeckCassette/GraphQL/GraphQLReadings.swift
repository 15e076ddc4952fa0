import Foundation
import TapedeckCore

/// The GraphQL readings of the requests a matcher has compared, so that a recorded request is read once however
/// many live requests are compared with it, and a live request once however many candidates it meets. Bounded:
/// it starts afresh past ``limit`` entries.
final class GraphQLReadings: Sendable {
    private struct Key: Hashable {
        var method: String
        var query: Substring?
        var contentType: String?
        var body: Data
    }

    /// How many readings are kept.
    static let limit = 4096
    private let readings = Locked<[Key: Result<GraphQLRequest?, GraphQLRequestError>]>([:])

    /// ``GraphQLRequest/read(method:query:contentType:body:)``, remembered.
    func read(method: String, query: Substring?, contentType: String?, body: Data) -> Result<GraphQLRequest?, GraphQLRequestError> {
        let key = Key(method: method, query: query, contentType: contentType, body: body)
        if let known = readings.withLock({ $0[key] }) { return known }
        let reading: Result<GraphQLRequest?, GraphQLRequestError>
        do throws(GraphQLRequestError) {
            reading = .success(try GraphQLRequest.read(method: method, query: query, contentType: contentType, body: body))
        } catch {
            reading = .failure(error)
        }
        readings.withLock { known in
            if known.count >= Self.limit { known.removeAll(keepingCapacity: true) }
            known[key] = reading
        }
        return reading
    }
}
