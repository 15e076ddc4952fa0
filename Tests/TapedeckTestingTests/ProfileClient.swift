import Foundation
import Tapedeck
import TapedeckCore

/// The client the sweep tests sweep: it loads a profile (retrying what is worth retrying), then the avatar (optional:
/// a placeholder when it fails), then logs out (best effort). Its two switchable bugs are the ones the sweep must
/// find, and only in the pairs they affect.
struct ProfileClient: Sendable {
    struct Profile: Decodable, Equatable {
        var id: Int
        var name: String
    }

    enum Failure: Error { case unavailable(Int) }

    static let base = URL(string: "https://api.example.test/v1/")!

    let transport: any HTTPTransport
    let clock: any WallClock
    /// The bug "ignores Retry-After": backoff only (0.1 s, 0.2 s, 0.4 s), however long the server asked to wait.
    var ignoresRetryAfter = false
    /// The bug "trusts the body": a 200 whose body does not decode is thrown at the caller instead of retried.
    var trustsTheBody = false

    /// Loads the profile and the avatar, then logs out; throws what it could not handle.
    func run() async throws -> (Profile, avatarBytes: Int) {
        let profile = try await loadProfile()
        let avatar = (try? await send(HTTPRequest(url: Self.base.appendingPathComponent("me/avatar"), headers: ["Accept": "image/png"]))).map { $0.data?.count ?? 0 } ?? 0
        _ = try? await transport.send(HTTPRequest(method: .delete, url: Self.base.appendingPathComponent("session")))
        return (profile, avatar)
    }

    private func loadProfile() async throws -> Profile {
        var attempts = 0
        while true {
            attempts += 1
            let response = try await send(HTTPRequest(url: Self.base.appendingPathComponent("me"), headers: ["Accept": "application/json"]))
            guard response.statusCode == 200 else { throw Failure.unavailable(response.statusCode) }
            do {
                return try JSONDecoder().decode(Profile.self, from: response.data ?? Data())
            } catch where !trustsTheBody && attempts < 3 {
                continue
            }
        }
    }

    private func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let policy = RetryPolicy(retryLimit: 3, backoff: RetryBackoff(initialDelay: .milliseconds(100), jitter: .none),
                                 honorsRetryAfter: !ignoresRetryAfter, clock: clock)
        return try await InterceptorLoop(interceptor: policy, clock: clock).send(request) { try await transport.send($0) }
    }
}
