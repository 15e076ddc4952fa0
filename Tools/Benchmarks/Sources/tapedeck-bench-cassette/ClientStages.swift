import CassetteBenchSupport
import Foundation
import Tapedeck
import TapedeckCore

/// Where a client-level replay's time goes, layer by layer, over a transport that answers at once from memory (no
/// cassette): each stage adds one layer of `HTTPSessionManager.get` to the one before, so the differences between
/// the medians are what each layer costs a request. Stages, in order:
/// `transport` (the instant transport alone), `pipeline` (`SessionPipeline.send` over it, as a task sends),
/// `task` (`SessionManager.dataTask(with:).run()`, no serializer work: an `HTTPResponseSerializer`),
/// `json` (the same with the JSON serializer), `client` (`HTTPSessionManager.get` with parameters, as ClientReplay);
/// and apart, `build`: only the request `client` builds (URL resolved against the base, query and default headers
/// from the request serializer), nothing sent.
struct ClientStages {
    let count: Int
    let rounds: Int

    /// Answers every request with the recorded response of the interaction its path's last segment numbers, with
    /// the events a replaying transport sends, and no lookup.
    struct InstantTransport: HTTPTransport {
        let responses: [HTTPResponse]

        func send(_ request: HTTPRequest, onEvent: HTTPEventHandler?) async throws -> HTTPResponse {
            let path = request.url.path
            let index = Int(path[path.index(after: path.lastIndex(of: "/")!)...])!
            let response = responses[index]
            if let onEvent {
                onEvent(.responseHead(response.head))
                let length = response.body.byteCount
                onEvent(.downloadProgress(TransferProgress(completed: length, total: length)))
                onEvent(.completed(response))
            }
            return response
        }
    }

    static let stages = ["transport", "pipeline", "task", "json", "client", "build"]

    /// Median microseconds per request of each stage, in ``stages``' order.
    func run() async throws -> [Double] {
        let responses = (0..<count).map { index -> HTTPResponse in
            let recorded = RealisticCassette.interaction(index)
            let stored = recorded.response!
            let head = HTTPResponseHead(statusCode: stored.statusCode, reasonPhrase: stored.reasonPhrase,
                                        headers: stored.headers, url: URL(string: RealisticCassette.url(index))!)
            return HTTPResponse(head: head, body: .data(stored.body.inlineData ?? Data()))
        }
        let transport = InstantTransport(responses: responses)
        let requests = (0..<count).map { index in
            HTTPRequest(url: URL(string: RealisticCassette.url(index))!, headers: RealisticCassette.requestHeaders(index))
        }
        let pipeline = SessionPipeline()
        let plain = SessionManager(transport: transport, responseSerializer: HTTPResponseSerializer())
        let json = SessionManager(transport: transport)
        let api = HTTPSessionManager(baseURL: RealisticCassette.baseURL, transport: transport)
        var perStage = Array(repeating: [Double](), count: Self.stages.count)
        for round in 0...rounds {
            for stage in Self.stages.indices {
                let start = ContinuousClock.now
                for index in 0..<count {
                    switch stage {
                    case 0: _ = try await transport.send(requests[index], onEvent: { _ in })
                    case 1: _ = try await pipeline.send(requests[index], over: transport, onEvent: { _ in })
                    case 2: _ = await plain.dataTask(with: requests[index]).run()
                    case 3: _ = await json.dataTask(with: requests[index]).run()
                    case 5:
                        let url = try api.url(for: RealisticCassette.path(index))
                        _ = try api.requestSerializer.request(
                            method: .get, url: url, parameters: ["page": .number(Double(RealisticCassette.page(index))), "sort": "name"])
                    default:
                        _ = try await api.get(RealisticCassette.path(index),
                                              parameters: ["page": .number(Double(RealisticCassette.page(index))), "sort": "name"])
                    }
                }
                if round > 0 { perStage[stage].append(ClientReplay.microseconds(ContinuousClock.now - start) / Double(count)) }
            }
        }
        return perStage.map(median)
    }
}
