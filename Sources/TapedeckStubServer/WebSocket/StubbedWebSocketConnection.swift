import CMicroHTTPD
import Foundation
import TapedeckWebSocket

/// One upgraded connection running a ``WebSocketStub`` on a thread of its own: it reads the client's frames (masked,
/// within the stub's limits, valid UTF-8), feeds them to ``WebSocketStubSession`` and carries out its steps.
enum StubbedWebSocketConnection {
    static func start(_ stub: WebSocketStub, socket: Int32, handle: OpaquePointer, leftover: [UInt8], core: StubServerCore,
                      upgrade: RecordedRequest, source: WebSocketJournal.Source) {
        UpgradedConnection.start(socket: socket, handle: handle, core: core, name: "tapedeck-stub-websocket") { sockets in
            let journal = core.webSockets.open(upgrade, source: source)
            serve(stub, socket: socket, leftover: leftover, sockets: sockets, journal: journal)
            journal.close()
        }
    }

    private static func serve(_ stub: WebSocketStub, socket: Int32, leftover: [UInt8], sockets: UpgradedSockets,
                              journal: WebSocketJournal.Entry) {
        let wire = BlockingSocket(descriptor: socket, sockets: sockets)
        var parser = WebSocketParser(role: .server, limits: stub.limits)
        var session = WebSocketStubSession(stub)
        guard perform(session.start(), wire: wire, journal: journal) else { return }
        parser.append(leftover)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            do {
                while let event = try parser.next() {
                    journal.note(.init(event), from: .client)
                    guard perform(session.received(event), wire: wire, journal: journal) else { return }
                }
            } catch {
                _ = perform(session.failed(error), wire: wire, journal: journal)
                return
            }
            guard let count = wire.read(into: &buffer), count > 0 else { return }
            parser.append(buffer[0..<count])
        }
    }

    /// Carries out `outputs`; false once the connection is over (closed, dropped, or the client left).
    private static func perform(_ outputs: [WebSocketStubSession.Output], wire: BlockingSocket, journal: WebSocketJournal.Entry) -> Bool {
        for output in outputs {
            switch output {
            case .send(let frame):
                guard wire.write(WebSocketFrameEncoder.encode(frame, maskingKey: nil)) else { return false }
                journal.note(.init(frame), from: .server)
            case .wait(let duration):
                wire.sleep(until: ContinuousClock.now + duration)
            case .end:
                wire.finish()
                return false
            case .drop:
                shutdown(wire.descriptor, Int32(SHUT_RDWR))
                return false
            }
        }
        return true
    }
}
