import CMicroHTTPD
import Foundation
import TapedeckCore

// The C entry points libmicrohttpd calls on its own threads. Each request gets an `IncomingRequest`, retained
// from the URI callback until the completion callback releases it.

private func core(_ context: UnsafeMutableRawPointer?) -> StubServerCore {
    Unmanaged<StubServerCore>.fromOpaque(context!).takeUnretainedValue()
}

let stubURICallback: tdk_mhd_uri_log_callback = { context, uri, _ in
    let target = uri.map { String(cString: $0) } ?? "/"
    let request = IncomingRequest(rawTarget: target, bodyLimit: core(context).configuration.maximumBodyInMemory)
    return Unmanaged.passRetained(request).toOpaque()
}

let stubCompletedCallback: MHD_RequestCompletedCallback = { _, _, requestContext, _ in
    guard let requestContext, let pointer = requestContext.pointee else { return }
    Unmanaged<IncomingRequest>.fromOpaque(pointer).release()
    requestContext.pointee = nil
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
    if uploadSize.pointee > 0 {
        request.appendBody(UnsafeRawBufferPointer(start: uploadData, count: uploadSize.pointee))
        uploadSize.pointee = 0
        return .YES
    }
    let server = core(context)
    let handle = ConnectionHandle(pointer: connection)
    if let delayed = request.delayedResponse {
        // Called again after the delay's resume: answer now.
        request.delayedResponse = nil
        return ResponseQueue.queue(delayed, on: handle, core: server)
    }
    let recorded = server.journal.append(request.recorded())
    let response = server.routes.response(for: recorded)
    if response.delay > .zero, !server.isStopping {
        request.delayedResponse = response
        server.suspend(handle, until: ContinuousClock.now + response.delay)
        return .YES
    }
    return ResponseQueue.queue(response, on: handle, core: server)
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
