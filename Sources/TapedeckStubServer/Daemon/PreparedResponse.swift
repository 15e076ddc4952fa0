import CMicroHTTPD
import Foundation
import TapedeckCore

/// A fixed stub response built into a libmicrohttpd response once, when the stub is added, and queued on every
/// connection that asks for it: libmicrohttpd reference-counts responses (under the response's own lock) and does
/// not change them when queuing, so one response serves any number of connections on any daemon thread.
/// Only small in-memory bodies with no delay are prepared; everything else is built per request.
final class PreparedResponse: @unchecked Sendable {
    let pointer: OpaquePointer
    let status: UInt32

    private init(pointer: OpaquePointer, status: UInt32) {
        self.pointer = pointer
        self.status = status
    }

    deinit { MHD_destroy_response(pointer) }

    /// The prepared form of `response`, or `nil` when it must be built per request.
    static func prepare(_ response: StubResponse) -> PreparedResponse? {
        guard response.delay == .zero, response.truncateAfter == nil, (100...999).contains(response.status) else { return nil }
        let made: OpaquePointer?
        switch response.body {
        case .empty:
            made = MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT)
        case .data(let data) where data.count <= ResponseQueue.copyLimit:
            made = data.withUnsafeBytes { bytes in
                MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
            }
        default:
            return nil
        }
        guard let made else { return nil }
        ResponseQueue.addHeaders(response.headers, to: made)
        return PreparedResponse(pointer: made, status: UInt32(response.status))
    }

    func queue(on connection: ConnectionHandle) -> MHD_Result {
        MHD_queue_response(connection.pointer, status, pointer)
    }
}
