import CMicroHTTPD
import Foundation
import TapedeckCore

// The C entry points libmicrohttpd calls on its own threads. Each request gets an `IncomingRequest`, retained
// from the URI callback until the completion callback releases it.

private func core(_ context: UnsafeMutableRawPointer?) -> StubServerCore {
    Unmanaged<StubServerCore>.fromOpaque(context!).takeUnretainedValue()
}

/// What the server does for a request once any delay is over.
enum StubAction: Sendable {
    case respond(StubResponse)
    case fault(TransportFault)
    /// Upgrade to a WebSocket and play a recorded conversation.
    case webSocket(ServedWebSocket)
    /// Send the upstream's `101` and relay the connection to it (the recording proxy).
    case webSocketRelay(WebSocketRelay)
    /// Upgrade to a WebSocket and run a stub on it.
    case webSocketStub(WebSocketStub)
}

let stubURICallback: tdk_mhd_uri_log_callback = { context, uri, _ in
    let target = uri.map { String(cString: $0) } ?? "/"
    let request = IncomingRequest(rawTarget: target, bodyLimit: core(context).configuration.maximumBodyInMemory)
    return Unmanaged.passRetained(request).toOpaque()
}

let stubCompletedCallback: MHD_RequestCompletedCallback = { _, _, requestContext, _ in
    guard let requestContext, let pointer = requestContext.pointee else { return }
    let request = Unmanaged<IncomingRequest>.fromOpaque(pointer).takeRetainedValue()
    requestContext.pointee = nil
    // A body being streamed upstream that never ended: the upstream transfer fails, as the client's connection did.
    request.upload?.fail(URLError(.networkConnectionLost))
}

let stubAccessHandler: MHD_AccessHandlerCallback = { context, connection, _, method, version, uploadData, uploadSize, requestContext in
    guard let connection, let requestContext, let pointer = requestContext.pointee, let uploadSize else { return .NO }
    let request = Unmanaged<IncomingRequest>.fromOpaque(pointer).takeUnretainedValue()
    if !request.headersCollected {
        request.headersCollected = true
        request.method = HTTPMethod(method.map { String(cString: $0) } ?? "GET")
        request.version = version.map { String(cString: $0) } ?? "HTTP/1.1"
        request.headers = collectHeaders(connection)
        return .YES
    }
    let server = core(context)
    let handle = ConnectionHandle(pointer: connection)
    if uploadSize.pointee > 0 {
        let piece = UnsafeRawBufferPointer(start: uploadData, count: uploadSize.pointee)
        if request.bodyLength == 0, request.upload == nil, request.pending == nil {
            startStreamingUpload(request, on: handle, core: server)
        }
        request.appendBody(piece)
        request.upload?.append(piece, from: handle, core: server)
        uploadSize.pointee = 0
        return .YES
    }
    // Resumed at stop after never answering: close.
    if request.hanging { return .NO }
    if let upload = request.upload, !upload.isEnded {
        // The last byte of a body streamed upstream came: the request is complete.
        upload.finish()
        request.journaled = server.journal.append(request.recorded())
    }
    if let pending = request.pending {
        // Called again once an answer worked out off the daemon's threads came (the connection was resumed), at stop
        // (then there is none), or when a body streamed upstream ended.
        guard !server.isStopping else { return .NO }
        guard let action = pending.takeOrSuspend(handle, core: server) else { return .YES }
        request.pending = nil
        return perform(action, request: request, on: handle, core: server)
    }
    if let delayed = request.delayedAction {
        // Called again after the delay's resume: act now.
        request.delayedAction = nil
        return perform(delayed, request: request, on: handle, core: server)
    }
    var recorded = request.recorded()
    if let admin = server.admin, admin.handles(path: recorded.path) {
        let response = admin.respond(to: recorded, peer: PeerAddress(tdk_mhd_connection_client_address(connection)))
        return ResponseQueue.queue(response, on: handle, core: server)
    }
    let action: StubAction
    var delay = Duration.zero
    if let stub = server.stubs.resolve(recorded) {
        recorded.matchedStubID = stub.id
        request.journaled = server.journal.append(recorded)
        if let prepared = stub.prepared {
            return prepared.queue(on: handle)
        }
        if case .fault(let fault) = stub.responder {
            action = .fault(fault)
            delay = stub.delay?.next() ?? .zero
        } else if case .webSocket(let webSocket) = stub.responder {
            action = .webSocketStub(webSocket.narrowed(to: recorded))
            delay = stub.delay?.next() ?? .zero
        } else {
            let response = stub.response(to: recorded)
            action = .respond(response)
            delay = response.delay
        }
    } else {
        request.journaled = server.journal.append(recorded)
        switch server.fallback.answer(recorded, stubs: server.stubs) {
        case .now(let fallbackAction, let fallbackDelay):
            action = fallbackAction
            delay = fallbackDelay
        case .later(let start):
            if server.isStopping { return .NO }
            let pending = PendingAction()
            start { answer in pending.fulfil(answer) }
            guard let answer = pending.takeOrSuspend(handle, core: server) else {
                request.pending = pending
                return .YES
            }
            action = answer
        case nil:
            action = .respond(server.stubs.notFoundResponse(for: recorded))
        }
    }
    if delay > .zero, !server.isStopping {
        request.delayedAction = action
        server.suspend(handle, until: ContinuousClock.now + delay)
        return .YES
    }
    return perform(action, request: request, on: handle, core: server)
}

/// Starts sending `request` upstream while its body still arrives, when the server's fallback is a recording proxy
/// that takes the request, no stub or admin route could want the body, and the body is long (over
/// ``StreamedUpload/threshold``) or chunked; shorter ones are read whole first, as every other request's.
private func startStreamingUpload(_ request: IncomingRequest, on connection: ConnectionHandle, core server: StubServerCore) {
    let headers = request.headers
    let length = headers.contentLength
    guard RecordedAnswer.isChunked(headers) || (length ?? 0) > StreamedUpload.threshold, !server.isStopping else { return }
    let recorded = request.recorded()
    if let admin = server.admin, admin.handles(path: recorded.path) { return }
    guard server.stubs.all.isEmpty else { return }
    let upload = StreamedUpload(length: RecordedAnswer.isChunked(headers) ? nil : length)
    guard let start = server.fallback.streamedAnswer(recorded, upload: upload) else { return }
    let pending = PendingAction()
    request.upload = upload
    request.pending = pending
    start { answer in pending.fulfil(answer) }
}

private func perform(_ action: StubAction, request: IncomingRequest, on connection: ConnectionHandle, core: StubServerCore) -> MHD_Result {
    switch action {
    case .respond(let response):
        return ResponseQueue.queue(response, on: connection, core: core)
    case .fault(.noResponse):
        request.hanging = true
        core.suspendUntilStop(connection)
        return core.isStopping ? .NO : .YES
    case .fault(let fault):
        return FaultInjector.inject(fault, on: connection, core: core)
    case .webSocket(let served):
        return WebSocketUpgrade.queue(served, upgrade: request.journaled ?? request.recorded(), on: connection, core: core)
    case .webSocketRelay(let relay):
        return WebSocketUpgrade.queue(relay, upgrade: request.journaled ?? request.recorded(), on: connection, core: core)
    case .webSocketStub(let stub):
        return WebSocketUpgrade.queue(stub, upgrade: request.journaled ?? request.recorded(), on: connection, core: core)
    }
}

private func collectHeaders(_ connection: OpaquePointer) -> HTTPHeaders {
    final class Box { var headers = HTTPHeaders() }
    let box = Box()
    _ = MHD_get_connection_values(connection, .HEADER_KIND, { context, _, key, value in
        let box = Unmanaged<Box>.fromOpaque(context!).takeUnretainedValue()
        if let key {
            box.headers.add(name: String(cString: key), value: value.map { String(cString: $0) } ?? "")
        }
        return .YES
    }, Unmanaged.passUnretained(box).toOpaque())
    return box.headers
}
