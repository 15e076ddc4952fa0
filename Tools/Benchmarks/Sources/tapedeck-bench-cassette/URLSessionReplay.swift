import CassetteBenchSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Tapedeck
import TapedeckCassette
import TapedeckCore
import TapedeckURLSession

/// The realistic cassette replayed through plain `URLSession` (`TapedeckURLSession`'s protocol) and through
/// `HTTPSessionManager.get`, in alternating blocks within one process: the same requests; URLSession's JSON parsed with
/// `JSONSerialization`, as URLSession code usually does, the client's with its JSON response serializer.
struct URLSessionReplay {
    let count: Int
    let block: Int
    let rounds: Int

    /// Microseconds per request of each block: URLSession, then HTTPSessionManager.
    func run() async throws -> (urlSession: [Double], client: [Double]) {
        let replay = try RealisticReplay(count: count, label: "urlsession")
        defer { replay.remove() }
        let transport = replay.transport
        let session = URLSession(configuration: .tapedeck(transport: transport))
        let api = HTTPSessionManager(baseURL: RealisticCassette.baseURL, transport: transport)
        let urls = (0..<count).map { URL(string: RealisticCassette.url($0))! }
        let result = try await AlternatingBlocks.run(count: count, block: block, rounds: rounds, measured: { range in
            for index in range {
                let (data, response) = try await session.data(from: urls[index])
                guard (response as? HTTPURLResponse)?.statusCode == 200, (try? JSONSerialization.jsonObject(with: data)) != nil else {
                    throw BenchFailure("URLSession: interaction \(index) did not replay")
                }
            }
        }, baseline: { try await ClientFeatures.get($0, from: api) })
        return (result.measured, result.baseline)
    }
}
