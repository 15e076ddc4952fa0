import CMicroHTTPD
import Foundation
import TapedeckCassette
import TapedeckCore
import TapedeckWebSocket

/// Answers an upgrade request with libmicrohttpd's upgrade response (`101 Switching Protocols`, then the socket is
/// handed over), and serves the recorded conversation on it (``ServedWebSocketConnection``). A request that is not
/// a valid upgrade gets a `400` naming what is wrong.
enum WebSocketUpgrade {
    /// What the upgrade handler needs, retained from queuing the response until the handler runs.
    final class Context: Sendable {
        let served: ServedWebSocket
        let core: StubServerCore

        init(served: ServedWebSocket, core: StubServerCore) {
            self.served = served
            self.core = core
        }
    }

    static func queue(_ served: ServedWebSocket, method: HTTPMethod, headers: HTTPHeaders, on connection: ConnectionHandle,
                      core: StubServerCore) -> MHD_Result {
        let recordedSubprotocol = served.recordedHeaders["Sec-WebSocket-Protocol"]?.trimmingCharacters(in: .whitespaces)
        let answer: WebSocketServerAnswer
        do {
            answer = try WebSocketHandshake.answer(method: method.rawValue, headers: headers,
                                                   supportedSubprotocols: recordedSubprotocol.map { [$0] } ?? [])
        } catch {
            return ResponseQueue.queue(.text("this recorded interaction is a WebSocket: \(error)\n", status: 400), on: connection, core: core)
        }
        let context = Unmanaged.passRetained(Context(served: served, core: core))
        guard let response = MHD_create_response_for_upgrade(upgradeHandler, context.toOpaque()) else {
            context.release()
            return .NO
        }
        for field in answer.headers { _ = MHD_add_response_header(response, field.name, field.value) }
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
    ServedWebSocketConnection.start(context.served, socket: socket, handle: handle, leftover: extra, core: context.core)
}
