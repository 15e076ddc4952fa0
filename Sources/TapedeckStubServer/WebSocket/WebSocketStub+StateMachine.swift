import Foundation
import TapedeckCassette
import TapedeckWebSocket

/// What a ``WebSocketStub`` does on one connection, without I/O: the steps for the connection's start and for each
/// event the client sends. Pings are answered with pongs, a client's close with the same code; a message is answered
/// by the first rule whose pattern accepts it, else by `otherwise`. After a close or a drop nothing more is done.
struct WebSocketStubSession: FrameLoopPolicy {
    /// What the connection does next: a send, a wait, the end once a close was sent, or a drop.
    typealias Output = FrameLoopStep

    let stub: WebSocketStub
    private(set) var isOver = false

    init(_ stub: WebSocketStub) { self.stub = stub }

    var limits: WebSocketLimits { stub.limits }

    mutating func start() -> [Output] { perform(stub.onConnect) }

    /// A stub reports nothing.
    func report(_ line: String) {}

    mutating func received(_ event: WebSocketEvent) -> [Output] {
        guard !isOver else { return [] }
        switch event {
        case .ping(let payload): return [.send(WebSocketFrame(opcode: .pong, payload: payload))]
        case .pong: return []
        case .close(let close):
            isOver = true
            return [.send(WebSocketClose(code: close.code).frame), .end]
        case .message(let message):
            let payload: Data
            switch message {
            case .text(let text): payload = Data(text.utf8)
            case .binary(let data): payload = data
            }
            let rule = stub.rules.first { $0.accepts(payload) }
            return perform(rule?.steps ?? stub.otherwise)
        }
    }

    /// The client broke the protocol: the RFC's close code.
    mutating func failed(_ error: WebSocketProtocolError) -> [Output] {
        guard !isOver else { return [] }
        isOver = true
        return [.send(.close(code: error.closeCode, reason: error.reason)), .end]
    }

    private mutating func perform(_ steps: [WebSocketStub.Step]) -> [Output] {
        var outputs: [Output] = []
        for step in steps where !isOver {
            switch step {
            case .send(.text(let text)): outputs.append(.send(WebSocketFrame(opcode: .text, payload: Data(text.utf8))))
            case .send(.binary(let data)): outputs.append(.send(WebSocketFrame(opcode: .binary, payload: data)))
            case .wait(let duration): outputs.append(.wait(duration))
            case .close(let code, let reason):
                isOver = true
                outputs += [.send(.close(code: code, reason: reason)), .end]
            case .drop:
                isOver = true
                outputs.append(.drop)
            }
        }
        return outputs
    }
}
