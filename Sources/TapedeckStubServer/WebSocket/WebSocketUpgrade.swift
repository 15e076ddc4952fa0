import CMicroHTTPD
import Foundation
import TapedeckCassette
import TapedeckCore
import TapedeckWebSocket

/// Answers an upgrade request with libmicrohttpd's upgrade response (`101 Switching Protocols`, then the socket is
/// handed over), and serves the recorded conversation or the stub on it (``UpgradedFrameLoop``) or relays it to the
/// recording proxy's upstream (``WebSocketRelay``). A request that is not a valid upgrade gets a `400` naming what
/// is wrong.
enum WebSocketUpgrade {
    /// What runs on the upgraded socket, retained from queuing the response until the handler runs.
    final class Context: Sendable {
        let start: @Sendable (_ socket: Int32, _ handle: OpaquePointer, _ leftover: [UInt8]) -> Void

        init(start: @escaping @Sendable (_ socket: Int32, _ handle: OpaquePointer, _ leftover: [UInt8]) -> Void) {
            self.start = start
        }
    }

    static func queue(_ served: ServedWebSocket, upgrade: RecordedRequest, on connection: ConnectionHandle,
                      core: StubServerCore) -> MHD_Result {
        let (method, headers) = (upgrade.method, upgrade.headers)
        let recordedSubprotocol = served.recordedHeaders["Sec-WebSocket-Protocol"]?.trimmingCharacters(in: .whitespaces)
        let answer: WebSocketServerAnswer
        do {
            answer = try WebSocketHandshake.answer(method: method.rawValue, headers: headers,
                                                   supportedSubprotocols: recordedSubprotocol.map { [$0] } ?? [])
        } catch {
            return ResponseQueue.queue(.text("this recorded interaction is a WebSocket: \(error)\n", status: 400), on: connection, core: core)
        }
        return queue(headers: servedHeaders(recorded: served.recordedHeaders, answer: answer), on: connection, core: core) {
            socket, handle, leftover in
            UpgradedFrameLoop.start(ServedWebSocketPlayback(served), socket: socket, handle: handle, leftover: leftover, core: core,
                                    upgrade: upgrade, source: .cassette)
        }
    }

    /// The `101` a served recording answers with: the recorded `101`'s headers as the upstream sent them (spelling,
    /// order and all), with the `Sec-WebSocket-Accept` of this client's key and the subprotocol agreed now. A header
    /// the recording lacks (a cassette written by hand) comes from `answer`; extensions, which a replay never agrees
    /// to, are left out.
    static func servedHeaders(recorded: HTTPHeaders, answer: WebSocketServerAnswer) -> HTTPHeaders {
        let fresh = answer.headers
        var headers = HTTPHeaders()
        for field in recorded.fields {
            switch field.name.lowercased() {
            case "content-length", "transfer-encoding", "sec-websocket-extensions":
                continue
            case "sec-websocket-accept", "sec-websocket-protocol":
                if !headers.contains(field.name), let value = fresh[field.name] { headers.add(name: field.name, value: value) }
            default:
                headers.add(name: field.name, value: field.value)
            }
        }
        for field in fresh.fields where !headers.contains(field.name) { headers.add(name: field.name, value: field.value) }
        return headers
    }

    /// Answers the upgrade for a stubbed WebSocket route and runs `stub` on the connection.
    static func queue(_ stub: WebSocketStub, upgrade: RecordedRequest, on connection: ConnectionHandle,
                      core: StubServerCore) -> MHD_Result {
        let (method, headers) = (upgrade.method, upgrade.headers)
        guard ServedCassette.asksForWebSocket(headers) else {
            var response = StubResponse.text("this route is a WebSocket: connect with a WebSocket client\n", status: 426)
            response.headers.add(name: "Upgrade", value: "websocket")
            return ResponseQueue.queue(response, on: connection, core: core)
        }
        let answer: WebSocketServerAnswer
        do {
            answer = try WebSocketHandshake.answer(method: method.rawValue, headers: headers, supportedSubprotocols: stub.subprotocols)
        } catch {
            return ResponseQueue.queue(.text("this route is a WebSocket: \(error)\n", status: 400), on: connection, core: core)
        }
        return queue(headers: answer.headers, on: connection, core: core) { socket, handle, leftover in
            UpgradedFrameLoop.start(WebSocketStubSession(stub), socket: socket, handle: handle, leftover: leftover, core: core,
                                    upgrade: upgrade, source: .stub(upgrade.matchedStubID ?? ""))
        }
    }

    /// Sends the upstream's `101` (its headers as they came) and relays the connection to it.
    static func queue(_ relay: WebSocketRelay, upgrade: RecordedRequest, on connection: ConnectionHandle, core: StubServerCore) -> MHD_Result {
        let headers = HTTPHeaders(relay.response.headers.fields.filter { !["content-length", "transfer-encoding"].contains($0.name.lowercased()) })
        let result = queue(headers: headers, on: connection, core: core) { socket, handle, leftover in
            let started = UpgradedConnection.start(socket: socket, handle: handle, core: core, name: "tapedeck-proxy-websocket") { sockets in
                let journal = core.webSockets.open(upgrade, source: .proxy)
                relay.run(socket: socket, clientLeftover: leftover, sockets: sockets, journal: journal)
            }
            if !started { relay.abandon(reason: "the server stopped before the connection was relayed") }
        }
        if result != .YES { relay.abandon(reason: "libmicrohttpd did not take the 101 answer") }
        return result
    }

    /// Queues a `101` with `headers`; `start` runs once libmicrohttpd hands the socket over.
    private static func queue(headers: HTTPHeaders, on connection: ConnectionHandle, core: StubServerCore,
                              start: @escaping @Sendable (Int32, OpaquePointer, [UInt8]) -> Void) -> MHD_Result {
        let context = Unmanaged.passRetained(Context(start: start))
        guard let response = MHD_create_response_for_upgrade(upgradeHandler, context.toOpaque()) else {
            context.release()
            return .NO
        }
        // libmicrohttpd starts an upgrade response with `Connection: Upgrade` and joins every Connection field added
        // after it to that one: without this, the upstream's `Connection: upgrade` went out as `Upgrade, upgrade`.
        if headers.contains("Connection") { _ = MHD_del_response_header(response, "Connection", "Upgrade") }
        for field in headers { _ = MHD_add_response_header(response, field.name, field.value) }
        let result = MHD_queue_response(connection.pointer, 101, response)
        MHD_destroy_response(response)
        if result != .YES { context.release() }
        return result
    }
}

/// Called by libmicrohttpd once the `101` is sent: the socket is ours until `MHD_upgrade_action(CLOSE)`.
private let upgradeHandler: MHD_UpgradeHandler = { context, _, _, extraIn, extraSize, socket, handle in
    let context = Unmanaged<WebSocketUpgrade.Context>.fromOpaque(context!).takeRetainedValue()
    let extra = extraIn.map { Array(UnsafeRawBufferPointer(start: $0, count: extraSize)) } ?? []
    guard let handle else { return }
    context.start(socket, handle, extra)
}
