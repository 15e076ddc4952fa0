import Crypto
import Foundation
import TapedeckCore

/// A request being received on one connection: created when its URI arrives, filled while headers and body come in,
/// released when libmicrohttpd reports the request complete. Touched only by the connection's daemon thread.
final class IncomingRequest {
    let rawTarget: String
    let receivedAt = Date()
    var method: HTTPMethod = .get
    var version = ""
    var headers = HTTPHeaders()
    var headersCollected = false
    /// What the server will do once a delay is over, while the connection is suspended.
    var delayedAction: StubAction?
    /// Set when the request is never answered (`TransportFault.noResponse`): when the connection is resumed (at stop)
    /// it is closed.
    var hanging = false
    /// The answer being worked out off the daemon's threads (a recording proxy's upstream exchange) while the
    /// connection is suspended.
    var pending: PendingAction?
    /// The body being sent upstream while it arrives (a recording proxy's long or chunked upload), if it is.
    var upload: StreamedUpload?
    /// The request as the journal stored it (numbered), once it is.
    var journaled: RecordedRequest?
    private(set) var body = Data()
    private(set) var bodyLength: Int64 = 0
    private(set) var bodyTruncated = false
    private var hasher = SHA256()
    private let bodyLimit: Int

    init(rawTarget: String, bodyLimit: Int) {
        self.rawTarget = rawTarget
        self.bodyLimit = bodyLimit
    }

    func appendBody(_ bytes: UnsafeRawBufferPointer) {
        bodyLength += Int64(bytes.count)
        hasher.update(bufferPointer: bytes)
        let room = bodyLimit - body.count
        if room >= bytes.count {
            body.append(contentsOf: bytes)
        } else {
            if room > 0 { body.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[..<room])) }
            bodyTruncated = true
        }
    }

    /// The request as handlers and the journal see it.
    func recorded() -> RecordedRequest {
        let (path, query) = Self.split(target: rawTarget)
        let digest = bodyLength == 0 ? Self.emptyBodyDigest : hasher.finalize().lowercaseHex
        return RecordedRequest(
            method: method, path: path, query: query, version: version, headers: headers, body: body,
            bodyLength: bodyLength, bodyTruncated: bodyTruncated, bodySHA256: digest, receivedAt: receivedAt)
    }

    private static let emptyBodyDigest = SHA256.hash(data: Data()).lowercaseHex

    /// Splits a request target into its path and raw query (without `?`); a fragment is dropped.
    static func split(target: String) -> (path: String, query: String?) {
        var rest = Substring(target)
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        guard let question = rest.firstIndex(of: "?") else { return (String(rest), nil) }
        return (String(rest[..<question]), String(rest[rest.index(after: question)...]))
    }
}
