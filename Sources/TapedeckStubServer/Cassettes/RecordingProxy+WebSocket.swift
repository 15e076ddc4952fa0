import Foundation
import TapedeckCassette
import TapedeckCore
import TapedeckWebSocket

extension RecordingProxy {
    /// The answer to an upgrade to a WebSocket, worked out on a thread of its own: the cassette's route for it
    /// (as `WebSocket.connect(to:through:)` takes it) replays a recorded conversation, or relays the connection to
    /// the upstream and records its frames into the cassette (redacted as the in-process recorder's are) when it ends.
    /// An upgrade the upstream refuses (any status but `101`) is handed on and recorded as the plain HTTP interaction
    /// it is, and replayed as one.
    func upgrade(_ request: RecordedRequest, to url: URL?) -> StubAction {
        guard let url, let webSocketURL = URL(string: ServedCassette.origin(url.absoluteString, forWebSocket: true)) else {
            settle(recorded: false)
            return .respond(.text("The request target \(request.path) cannot be appended to the upstream \(upstream?.absoluteString ?? "the proxy's upstream").\n", status: 400))
        }
        let headers = ProxyMessage.upgradeHeaders(for: request)
        let upgrade = Interaction.Request(method: request.method.rawValue, url: webSocketURL.absoluteString, headers: headers)
        let records: Bool
        do {
            switch try cassette.webSocketRoute(for: upgrade) {
            case .replay(let interaction, let fault):
                settle(recorded: false)
                return ServedWebSocket.action(
                    frames: interaction.webSocket?.frames ?? [], fault: fault, recordedHeaders: interaction.response?.headers ?? HTTPHeaders(),
                    matcher: cassette.webSocketMatcher(mode: .exact, upgrade: upgrade), serving: WebSocketServing(), report: { _ in })
            case .refused(let interaction, let index), .faulted(let interaction, let index):
                settle(recorded: false)
                return RecordedAnswer.action(for: interaction, index: index, cassette: cassette.cassetteURL)
            case .record: records = true
            case .live: records = false
            }
        } catch {
            settle(recorded: false)
            return .respond(Self.failure("The recording proxy could not look \(upgrade.summary) up in its cassette: \(error)"))
        }
        let startedAt = Date()
        do {
            let opening = try WebSocketRelay.open(url: webSocketURL, headers: headers, configuration: upstreamConfiguration, timeout: timeout) {
                [self] response, frames, _, metrics in
                var saved = false
                if records {
                    let conversation = WebSocketConversation(url: webSocketURL, requestHeaders: headers, response: response, frames: frames,
                                                             metrics: metrics)
                    saved = (try? cassette.recordWebSocket(conversation.interaction(recordedAt: startedAt))) != nil
                }
                settle(recorded: saved)
            }
            switch opening {
            case .upgraded(let relay):
                remember(relay)
                return .webSocketRelay(relay)
            case .refused(let answer, let body):
                var saved = false
                if records {
                    let refusal = Interaction(
                        request: upgrade,
                        outcome: .response(Interaction.Response(statusCode: answer.status, reasonPhrase: answer.reason,
                                                                url: webSocketURL.absoluteString, headers: answer.headers,
                                                                body: CassetteBody(body, contentEncoding: answer.headers["Content-Encoding"]))),
                        recordedAt: startedAt)
                    saved = (try? cassette.recordWebSocket(refusal)) != nil
                }
                settle(recorded: saved)
                let headers = HTTPHeaders(answer.headers.fields.filter { !RecordedAnswer.hopByHopHeaders.contains($0.name.lowercased()) })
                return .respond(StubResponse(status: answer.status, headers: headers, body: .data(body)))
            case .unofferedExtensions(let extensions):
                settle(recorded: false)
                return .respond(Self.failure("The upstream accepted the WebSocket extension(s) \(extensions) for \(upgrade.summary), "
                                             + "which the recording proxy did not offer: it records the frames as they pass and cannot read "
                                             + "transformed (compressed) ones, so it offers no extension"))
            }
        } catch let error as URLError {
            settle(recorded: false)
            return RecordedAnswer.action(for: Interaction.Failure(error))
        } catch {
            settle(recorded: false)
            return .respond(Self.failure("The recording proxy could not relay \(upgrade.summary): \(error)"))
        }
    }

    private static func failure(_ text: String) -> StubResponse {
        var response = StubResponse.text(text + "\n", status: 502)
        response.headers.add(name: "X-Tapedeck-Proxy-Error", value: "1")
        return response
    }
}
