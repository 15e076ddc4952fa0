import CassetteBenchSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
import TapedeckCassette
import TapedeckCore
import TapedeckURLSession

/// The URLSession adapter replaying the realistic cassette against the floor of any custom protocol: a minimal
/// `URLProtocol` that answers the same responses from memory, synchronously in `startLoading`. What is left between
/// the two is the adapter's own cost (its hop out of `startLoading`, the session pipeline, the cassette lookup);
/// FoundationNetworking's task machinery is the same on both sides. Alternating blocks within one process; the same
/// requests, each answer parsed with `JSONSerialization`. `urlCache` is off on both sides when `withoutCache` is set.
struct URLSessionFloor {
    let count: Int
    let block: Int
    let rounds: Int
    let withoutCache: Bool

    /// Microseconds per request of each block: the adapter, then the floor.
    func run() async throws -> (adapter: [Double], floor: [Double]) {
        let replay = try RealisticReplay(count: count, label: "urlsession-floor")
        defer { replay.remove() }
        let base = URLSessionConfiguration.ephemeral
        if withoutCache { base.urlCache = nil }
        let adapter = URLSession(configuration: .tapedeck(transport: replay.transport, base: base))
        let floorConfiguration = base.copy() as! URLSessionConfiguration
        floorConfiguration.protocolClasses = [MemoryURLProtocol.self]
        let floor = URLSession(configuration: floorConfiguration)
        let urls = (0..<count).map { URL(string: RealisticCassette.url($0))! }
        MemoryURLProtocol.answers.withLock { answers in
            for index in 0..<count {
                let interaction = RealisticCassette.interaction(index)
                guard case .response(let response) = interaction.outcome, let data = response.body.inlineData else { continue }
                var fields: [String: String] = [:]
                for field in response.headers { fields[field.name] = field.value }
                answers[urls[index]] = (fields, data)
            }
        }
        func fetch(_ session: URLSession, _ range: Range<Int>, _ label: String) async throws {
            for index in range {
                let (data, response) = try await session.data(from: urls[index])
                guard (response as? HTTPURLResponse)?.statusCode == 200, (try? JSONSerialization.jsonObject(with: data)) != nil else {
                    throw BenchFailure("\(label): interaction \(index) did not answer")
                }
            }
        }
        let result = try await AlternatingBlocks.run(count: count, block: block, rounds: rounds,
                                                     measured: { try await fetch(adapter, $0, "adapter") },
                                                     baseline: { try await fetch(floor, $0, "floor") })
        return (result.measured, result.baseline)
    }
}

/// Answers from memory, synchronously in `startLoading`: the least any custom protocol can do.
final class MemoryURLProtocol: URLProtocol {
    static let answers = Mutex<[URL: ([String: String], Data)]>([:])

    override class func canInit(with request: URLRequest) -> Bool { true }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        guard let url = request.url, let (fields, data) = Self.answers.withLock({ $0[url] }) else {
            client?.urlProtocol(self, didFailWithError: URLError(.resourceUnavailable))
            return
        }
        let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: fields)!
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(self, didLoad: data)
        client?.urlProtocolDidFinishLoading(self)
    }

    override func stopLoading() {}
}
