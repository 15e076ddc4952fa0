import Foundation
import Testing
import Tapedeck
import TapedeckCassette
import TapedeckTesting

/// The async verbs and the AFNetworking-style closures are one path: replaying the same committed cassette through
/// both gives the same results, and the results the cassette says.
@Suite struct SessionReplayParityTests {
    /// What a test compares of a result.
    struct Outcome: Equatable {
        var status: Int?
        var value: JSONValue?
        var errorCode: Int?
        var errorDomain: String?
        var data: Data?

        init(_ value: (any Sendable)?, status: Int?, error: (any Error)?, data: Data?) {
            self.status = status
            self.value = value as? JSONValue
            errorCode = error.map { ($0 as NSError).code }
            errorDomain = error.map { ($0 as NSError).domain }
            self.data = data ?? error.flatMap { ($0 as NSError).userInfo[ResponseSerializationError.dataKey] as? Data }
        }
    }

    static let replaysEverything = {
        var configuration = CassetteConfiguration()
        configuration.allowPlaybackRepeats = true
        return configuration
    }()

    private func viaAsync(_ api: HTTPSessionManager) async -> [Outcome] {
        var outcomes: [Outcome] = []
        for (method, path, parameters) in Self.calls {
            do {
                let result = try await api.request(method, path, parameters: parameters)
                outcomes.append(Outcome(result.value, status: result.response?.statusCode, error: nil, data: nil))
            } catch {
                outcomes.append(Outcome(nil, status: nil, error: error, data: nil))
            }
        }
        return outcomes
    }

    private func viaClosures(_ api: HTTPSessionManager) async -> [Outcome] {
        var outcomes: [Outcome] = []
        for (method, path, parameters) in Self.calls {
            outcomes.append(await withCheckedContinuation { continuation in
                api.dataTask(method, path, parameters: parameters, success: { task, value in
                    continuation.resume(returning: Outcome(value, status: task.response?.statusCode, error: nil, data: nil))
                }, failure: { _, error in
                    continuation.resume(returning: Outcome(nil, status: nil, error: error, data: nil))
                })
            })
        }
        return outcomes
    }

    static let calls: [(HTTPMethod, String, JSONValue?)] = [
        (.get, "users", ["page": 2]),
        (.post, "users", ["name": "Ada"]),
        (.get, "users/99", nil),
    ]

    static let expected: [Outcome] = [
        Outcome(["page": 2, "users": [["id": 3, "name": "Grace"], ["id": 4, "name": nil]]] as JSONValue, status: 200, error: nil, data: nil),
        Outcome(["id": 7, "name": "Ada"] as JSONValue, status: 201, error: nil, data: nil),
        Outcome(nil, status: nil, error: NSError(domain: ResponseSerializationError.errorDomain, code: NSURLErrorBadServerResponse,
                                                 userInfo: [ResponseSerializationError.dataKey: Data(#"{"error":"no such user"}"#.utf8)]),
                data: nil),
    ]

    @Test(.cassette(configuration: replaysEverything, requireAllPlayed: true))
    func closuresAndAsyncReplayTheSameCassette() async throws {
        let api = HTTPSessionManager(baseURL: URL(string: "https://api.example.test/v1")!, transport: TapedeckTest.transport)
        let asynchronous = await viaAsync(api)
        let closures = await viaClosures(api)
        #expect(asynchronous == Self.expected)
        #expect(closures == asynchronous)
    }
}
