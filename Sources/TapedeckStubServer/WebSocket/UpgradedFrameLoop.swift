import CMicroHTTPD
import Foundation
import TapedeckCassette
import TapedeckWebSocket

/// What an upgraded connection does next, whichever ``FrameLoopPolicy`` decides it.
enum FrameLoopStep: Sendable, Hashable {
    /// Send a frame.
    case send(WebSocketFrame)
    /// Wait this long before the next step.
    case wait(Duration)
    /// Wait until this long after the connection began (recorded pacing).
    case waitUntil(Duration)
    /// Hand a line to the policy's report (a near miss, a recording's cut).
    case report(String)
    /// The close frame (if any) was sent: stop writing, read what the client still sends, hand the socket back.
    case end
    /// Cut the connection without a close frame.
    case drop
}

/// What decides the frames of an upgraded connection, without I/O: a stub's rules (``WebSocketStubSession``) or a
/// recorded conversation's playback (``ServedWebSocketPlayback``).
protocol FrameLoopPolicy: Sendable {
    /// The largest frame and message accepted from the client.
    var limits: WebSocketLimits { get }
    /// The steps due as soon as the connection is open.
    mutating func start() -> [FrameLoopStep]
    /// The steps after the client's `event`.
    mutating func received(_ event: WebSocketEvent) -> [FrameLoopStep]
    /// The steps after the client broke the protocol (a close with the RFC's code).
    mutating func failed(_ error: WebSocketProtocolError) -> [FrameLoopStep]
    /// Where ``FrameLoopStep/report(_:)`` lines go.
    func report(_ line: String)
}

/// One upgraded connection on a thread of its own: it reads the client's frames (masked, within the policy's limits,
/// valid UTF-8), hands each to the policy, carries out the steps it answers, and notes every frame in the server's
/// WebSocket journal. A protocol violation closes this connection with the RFC's code; other connections are not
/// affected.
enum UpgradedFrameLoop {
    static func start(_ policy: some FrameLoopPolicy, socket: Int32, handle: OpaquePointer, leftover: [UInt8], core: StubServerCore,
                      upgrade: RecordedRequest, source: WebSocketJournal.Source) {
        UpgradedConnection.start(socket: socket, handle: handle, core: core, name: "tapedeck-stub-websocket") { sockets in
            let journal = core.webSockets.open(upgrade, source: source)
            run(policy, wire: BlockingSocket(descriptor: socket, sockets: sockets), leftover: leftover, journal: journal)
            journal.close()
        }
    }

    /// Runs the connection until the policy ends it, the client breaks the protocol or leaves, or the server stops.
    private static func run<Policy: FrameLoopPolicy>(_ policy: Policy, wire: BlockingSocket, leftover: [UInt8],
                                                     journal: WebSocketJournal.Entry) {
        var policy = policy
        var parser = WebSocketParser(role: .server, limits: policy.limits)
        let started = ContinuousClock.now
        guard perform(policy.start(), policy: policy, wire: wire, started: started, journal: journal) else { return }
        parser.append(leftover)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            do {
                while let event = try parser.next() {
                    journal.note(.init(event), from: .client)
                    guard perform(policy.received(event), policy: policy, wire: wire, started: started, journal: journal) else { return }
                }
            } catch {
                _ = perform(policy.failed(error), policy: policy, wire: wire, started: started, journal: journal)
                return
            }
            guard let count = wire.read(into: &buffer), count > 0 else { return }
            parser.append(buffer[0..<count])
        }
    }

    /// Carries out `steps`; false once the connection is over (closed, dropped, or the client left).
    private static func perform(_ steps: [FrameLoopStep], policy: some FrameLoopPolicy, wire: BlockingSocket,
                                started: ContinuousClock.Instant, journal: WebSocketJournal.Entry) -> Bool {
        for step in steps {
            switch step {
            case .send(let frame):
                guard wire.write(WebSocketFrameEncoder.encode(frame, maskingKey: nil)) else { return false }
                journal.note(.init(frame), from: .server)
            case .wait(let duration):
                wire.sleep(until: ContinuousClock.now + duration)
            case .waitUntil(let offset):
                wire.sleep(until: started + offset)
            case .report(let line):
                policy.report(line)
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
