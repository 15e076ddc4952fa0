import Foundation

/// A transport that lets its caller overlap work with a transfer: work of the caller's own while the request is on
/// the wire, and work run on the transport's thread the moment the response is complete, while the caller's task
/// is being resumed.
///
/// Resuming a task that waits on another thread takes tens of microseconds on a loaded or virtual machine, about
/// as long as writing down a small recorded interaction. A recording transport overlaps that writing with the
/// transfer this way, so that recording costs little more than passing the request through. `CurlTransport`
/// conforms.
package protocol OverlappingTransport: HTTPTransport {
    /// Sends `request` like ``HTTPTransport/send(_:)``.
    ///
    /// - Parameters:
    ///   - whileInFlight: runs once in the caller's task, after the request has been handed to the transport and
    ///     before the caller waits for the response.
    ///   - onCompletion: runs with the response on the transport's own thread, right after the caller's task has
    ///     been scheduled to resume; this method returns only once it has returned. It does not run when the
    ///     transfer fails, and it may run before `whileInFlight` has returned. Keep it short and non-blocking: no
    ///     other transfer of the transport moves while it runs.
    func send(
        _ request: HTTPRequest, whileInFlight: () -> Void, onCompletion: @escaping @Sendable (HTTPResponse) -> Void
    ) async throws -> HTTPResponse
}
