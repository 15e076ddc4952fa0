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
    /// A response waiting out its delay while the connection is suspended.
    var delayedResponse: StubResponse?
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
        let digest = hasher.finalize().map { String(format: "%02x", $0) }.joined()
        return RecordedRequest(
            method: method, path: path, query: query, version: version, headers: headers, body: body,
            bodyLength: bodyLength, bodyTruncated: bodyTruncated, bodySHA256: digest, receivedAt: receivedAt)
    }

    /// Splits a request target into its path and raw query (without `?`); a fragment is dropped.
    static func split(target: String) -> (path: String, query: String?) {
        var rest = Substring(target)
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        guard let question = rest.firstIndex(of: "?") else { return (String(rest), nil) }
        return (String(rest[..<question]), String(rest[rest.index(after: question)...]))
    }
}
