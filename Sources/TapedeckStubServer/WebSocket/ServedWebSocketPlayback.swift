import Foundation
import TapedeckCassette
import TapedeckWebSocket

/// A recorded conversation played on an upgraded connection: ``WebSocketServerReplay``'s outputs as frame-loop
/// steps, the server's frames paced as ``WebSocketServing/pacing`` says, near misses and cuts reported to the served
/// cassette's summary.
struct ServedWebSocketPlayback: FrameLoopPolicy {
    let served: ServedWebSocket
    private var replay: WebSocketServerReplay

    init(_ served: ServedWebSocket) {
        self.served = served
        replay = WebSocketServerReplay(script: served.script, matcher: served.matcher, mismatchCode: served.serving.mismatchCloseCode)
    }

    var limits: WebSocketLimits { served.serving.limits }

    mutating func start() -> [FrameLoopStep] { steps(replay.start()) }

    mutating func received(_ event: WebSocketEvent) -> [FrameLoopStep] { steps(replay.received(event)) }

    mutating func failed(_ error: WebSocketProtocolError) -> [FrameLoopStep] { steps(replay.failed(error)) }

    func report(_ line: String) { served.report(line) }

    private func steps(_ outputs: [WebSocketServerReplay.Output]) -> [FrameLoopStep] {
        outputs.flatMap { output -> [FrameLoopStep] in
            switch output {
            case .send(let frame, let at):
                if case .recorded(let scale) = served.serving.pacing, at > 0, scale > 0 {
                    return [.waitUntil(.seconds(at * scale)), .send(frame)]
                }
                return [.send(frame)]
            case .mismatch(let mismatch):
                return [.report(mismatch.description)]
            case .cut(let cut):
                return [.report("WebSocket replay: the recording ends \(cut) without the server's close; the connection was dropped")]
            case .end:
                return [.end]
            case .drop:
                return [.drop]
            }
        }
    }
}
