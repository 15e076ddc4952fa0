import Foundation
import TapedeckCassette
import TapedeckCore
import TapedeckCurl

/// How a ``ForwardProxy`` answers one request once its daemon has read it: it works out the URL the client asked
/// for (the absolute-form target, or the tunnel's origin and the path), applies the host policy, and records,
/// replays or passes the request through. Shared by every daemon of the proxy.
final class ForwardExchange: Sendable {
    /// Where answers to covered hosts come from.
    enum Source: Sendable {
        /// Forwarded upstream and recorded, as `tapedeck record --upstream` does.
        case recording(RecordingProxy)
        /// From the cassette, as `tapedeck serve` does; the upstream is never contacted.
        case replaying(ServedCassette)
    }

    let source: Source
    let policy: ProxyHostPolicy
    /// The transport of requests passed through unrecorded (only with ``ProxyHostPolicy/passthrough``).
    let passthroughTransport: CurlTransport?
    let timeout: TimeInterval
    let log: @Sendable (String) -> Void

    init(source: Source, policy: ProxyHostPolicy, upstreamConfiguration: CurlTransport.Configuration,
         timeout: TimeInterval, log: @escaping @Sendable (String) -> Void) {
        self.source = source
        self.policy = policy
        self.timeout = timeout
        self.log = log
        passthroughTransport = policy.passthrough
            ? CurlTransport(configuration: RecordingProxy.forwarding(upstreamConfiguration)) : nil
    }

    /// The answer to `request`, received inside a tunnel to `origin` (`https://host[:port]`), or in absolute form
    /// when `origin` is `nil`.
    func answer(_ request: RecordedRequest, origin: String?) -> FallbackAnswer {
        let target: String
        switch Self.target(of: request, origin: origin) {
        case .success(let url): target = url
        case .failure(let problem):
            return .now(.respond(.text(problem.message + "\n", status: 400)), delay: .zero)
        }
        guard let url = URL(string: target), let host = url.host, !host.isEmpty else {
            return .now(.respond(.text("The request target \(target) is not a URL with a host.\n", status: 400)), delay: .zero)
        }
        switch policy.decision(forHost: host) {
        case .refused(let message):
            log(message)
            return .now(.respond(Self.refusal(message)), delay: .zero)
        case .passthrough:
            // The transport exists exactly when the policy passes hosts through.
            guard let transport = passthroughTransport else {
                return .now(.respond(Self.refusal("Tapedeck's forward proxy does not pass \(host) through")), delay: .zero)
            }
            return passThrough(request, to: url, over: transport)
        case .cassette:
            switch source {
            case .recording(let recorder): return recorder.answer(request, to: url)
            case .replaying(let cassette): return cassette.answer(request, url: target, stubReport: { nil })
            }
        }
    }

    /// The start of recording `request`, whose body is `upload`, still arriving; `nil` unless the request goes to a
    /// host the proxy records (then its body is read whole first, and ``answer(_:origin:)`` decides).
    func streamedAnswer(_ request: RecordedRequest, origin: String?, upload: StreamedUpload) -> FallbackAnswer.Start? {
        guard case .recording(let recorder) = source, case .success(let target) = Self.target(of: request, origin: origin),
              let url = URL(string: target), let host = url.host, !host.isEmpty,
              case .cassette = policy.decision(forHost: host)
        else { return nil }
        return recorder.streamedAnswer(request, to: url, upload: upload)
    }

    /// Why a request cannot go through the proxy.
    struct Problem: Error, Equatable {
        let message: String
    }

    /// The URL a request asks for: the tunnel's origin and the request's path and query, or the absolute-form
    /// target itself. Pure logic.
    static func target(of request: RecordedRequest, origin: String?) -> Result<String, Problem> {
        let query = request.query.map { "?" + $0 } ?? ""
        if request.method.rawValue.uppercased() == "CONNECT" {
            return .failure(Problem(message: "CONNECT \(request.path) came after another request on this connection; "
                + "send CONNECT as the first request of a connection to the proxy"))
        }
        if let origin {
            let path = request.path.hasPrefix("/") ? request.path : "/" + request.path
            return .success(origin + path + query)
        }
        let lowered = request.path.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else {
            return .failure(Problem(message: "\(request.method.rawValue) \(request.path) reached Tapedeck's forward proxy, "
                + "which takes absolute-form requests (GET http://host/path) and CONNECT: point the client at it as a "
                + "proxy (HTTP_PROXY / HTTPS_PROXY, curl -x) instead of as a server"))
        }
        return .success(request.path + query)
    }

    /// The `403` for a refused host: the reason as body and status text, so clients that show only one see it.
    static func refusal(_ message: String) -> StubResponse {
        var response = StubResponse.text(message + "\n", status: 403)
        response.headers.add(name: "X-Tapedeck-Proxy-Refused", value: "1")
        return response
    }

    /// Sends `request` to `url` unrecorded, off the daemon's threads, on the transport's event loop (see
    /// `RecordingProxy.executor`).
    private func passThrough(_ request: RecordedRequest, to url: URL, over transport: CurlTransport) -> FallbackAnswer {
        .later { [timeout] completion in
            let outgoing = ProxyMessage.upstreamRequest(for: request, url: url, timeout: timeout)
            Task(executorPreference: transport.executor) {
                do {
                    completion(.respond(ProxyMessage.answer(from: try await transport.send(outgoing))))
                } catch let error as URLError {
                    completion(RecordedAnswer.action(for: Interaction.Failure(error)))
                } catch {
                    completion(.respond(.text("Tapedeck's forward proxy could not pass \(url.absoluteString) through: \(error)\n", status: 502)))
                }
            }
        }
    }
}
