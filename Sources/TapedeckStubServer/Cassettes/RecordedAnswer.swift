import Foundation
import TapedeckCassette
import TapedeckCore

/// Turns a recorded interaction into what the server does at the socket, so that a client sees what the in-process
/// replayer would have given it. Pure logic.
///
/// A response is sent with its recorded status, headers and body. A body the recording transport decoded (or
/// stored decoded) while `Content-Encoding: gzip` was announced is gzip-encoded again, so the client's decoding
/// gives back the recorded bytes; a response recorded with `Transfer-Encoding: chunked` is sent chunked; a sidecar
/// body is sent straight from its file. A body recorded with its chunks (``Interaction/Response/chunks``, e.g. a
/// server-sent event stream) is sent chunked in those chunks, each at its recorded time multiplied by the timing's
/// scale (all at once, but still chunk by chunk, with ``ReplayTiming/instant``). A stream recorded as cut short
/// (``Interaction/Response/interruption``) then stalls, for a recorded timeout (the client's own read timeout
/// fires), or drops the connection, for any other error.
///
/// A recorded transport error becomes the socket behaviour that makes `CurlTransport` report the same `URLError`:
///
/// | recorded | at the socket | client sees |
/// |---|---|---|
/// | `-1005` networkConnectionLost | `TransportFault.reset` | `-1005` |
/// | `-1011` badServerResponse | `TransportFault.closeWithoutResponse` | `-1011` |
/// | `-1001` timedOut | `TransportFault.noResponse` | `-1001` after the client's own timeout |
/// | `-1016` cannotDecodeContentData | a `Content-Encoding: gzip` body that is not gzip | `-1016` (when the client decodes) |
/// | anything else, e.g. `-1004` cannotConnectToHost | `502` with ``recordedErrorHeader`` naming the error | a `502` response |
///
/// A listening server cannot make a client fail to connect or to resolve a name, so those errors (and TLS ones)
/// are answered with the `502`.
enum RecordedAnswer {
    /// The header of the `502` that stands in for an error the server cannot reproduce, e.g.
    /// `NSURLErrorDomain -1004: Could not connect to the server.`
    static let recordedErrorHeader = "X-Tapedeck-Recorded-Error"

    /// Response headers that describe one connection, never forwarded or replayed.
    static let hopByHopHeaders: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "proxy-authenticate", "proxy-authorization", "te", "trailer",
        "trailers", "transfer-encoding", "upgrade", "content-length",
    ]

    /// What to do for `interaction`, the one at `index` in the cassette at `cassette`; recorded chunk times are
    /// multiplied by `scale` (0: send the chunks at once).
    static func action(for interaction: Interaction, index: Int, cassette: URL, scale: Double = 0) -> StubAction {
        switch interaction.outcome {
        case .failure(let failure): return action(for: failure)
        case .response(let response): return .respond(self.response(response, index: index, cassette: cassette, scale: scale))
        }
    }

    /// The socket behaviour for a recorded transport error (see the type's table).
    static func action(for failure: Interaction.Failure) -> StubAction {
        switch URLError.Code(rawValue: failure.code) {
        case .networkConnectionLost: return .fault(.reset)
        case .badServerResponse: return .fault(.closeWithoutResponse)
        case .timedOut: return .fault(.noResponse)
        case .cannotDecodeContentData:
            return .respond(StubResponse(status: 200, headers: ["Content-Encoding": "gzip", recordedErrorHeader: headerText(failure)],
                                         body: .data(Data("this body is not gzip, as recorded".utf8))))
        default:
            var response = StubResponse.text(
                "The cassette recorded a transport error here that a listening server cannot reproduce: "
                    + "NSURLErrorDomain \(failure.code): \(failure.message)\n", status: 502)
            response.headers.add(name: recordedErrorHeader, value: headerText(failure))
            return .respond(response)
        }
    }

    /// `NSURLErrorDomain CODE: message`, on one line and at most 300 characters.
    static func headerText(_ failure: Interaction.Failure) -> String {
        let message = failure.message.map { $0.isNewline || $0 == "\u{0}" ? " " : $0 }
        return String("NSURLErrorDomain \(failure.code): \(String(message))".prefix(300))
    }

    /// The recorded response as the server sends it; recorded chunk times are multiplied by `scale`.
    static func response(_ recorded: Interaction.Response, index: Int, cassette: URL, scale: Double = 0) -> StubResponse {
        let headers = forwardable(recorded.headers)
        let chunked = isChunked(recorded.headers)
        let body: StubBody
        if recorded.chunks != nil || recorded.interruption != nil {
            let data: Data
            do { data = try CassetteFile.bodyData(recorded.body, cassette: cassette) } catch {
                return unreadableSidecar(CassetteFile.sidecarURL(recorded.body.sidecarPath ?? "", cassette: cassette), index: index,
                                         cassette: cassette, reason: error.description)
            }
            let sent = needsGzip(recorded, bytes: data) ? ContentCoding.gzip(data) : data
            let chunks = recorded.chunks ?? [TimedChunk(byteCount: sent.count, at: 0)]
            var body = ChunkedBody(data: sent, schedule: chunks.map { TimedChunk(byteCount: $0.byteCount, at: $0.at * max(0, scale)) })
            if let interruption = recorded.interruption {
                body.ending = URLError.Code(rawValue: interruption.code) == .timedOut ? .stall : .dropConnection
            }
            return StubResponse(status: recorded.statusCode, headers: headers, body: .chunked(body))
        }
        switch recorded.body.storage {
        case .inline(let data):
            body = framed(needsGzip(recorded, bytes: data) ? ContentCoding.gzip(data) : data, chunked: chunked)
        case .sidecar(let path, _):
            let file = CassetteFile.sidecarURL(path, cassette: cassette)
            let confined: URL
            do { confined = try CassetteFile.sidecarToRead(path, cassette: cassette) } catch {
                return unreadableSidecar(file, index: index, cassette: cassette, reason: error.description)
            }
            if chunked || recorded.body.contentEncoding != nil || announcesGzip(recorded.headers) {
                do {
                    let data = try CassetteFile.bodyData(recorded.body, cassette: cassette)
                    body = framed(needsGzip(recorded, bytes: data) ? ContentCoding.gzip(data) : data, chunked: chunked)
                } catch {
                    return unreadableSidecar(file, index: index, cassette: cassette, reason: error.description)
                }
            } else if FileManager.default.isReadableFile(atPath: confined.path) {
                body = .file(confined)
            } else {
                return unreadableSidecar(file, index: index, cassette: cassette, reason: "the file is missing or unreadable")
            }
        }
        return StubResponse(status: recorded.statusCode, headers: headers, body: body)
    }

    /// `answer` as sent to a `HEAD` request. libmicrohttpd sends no body to a `HEAD` and announces the length of the
    /// body it was given, so a bodiless answer gets a body of the length `announced` names in its `Content-Length`
    /// (the upstream's, live or recorded), which is never sent: the client learns the length a `GET` would have.
    static func answeringHEAD(_ answer: StubResponse, announced: HTTPHeaders) -> StubResponse {
        guard case .empty = answer.body, !isChunked(announced),
              let length = announced.contentLength, length > 0
        else { return answer }
        var answering = answer
        answering.body = .generated(length: length)
        return answering
    }

    /// `headers` without the ones that describe one connection or its framing (`dropping`, lowercased) and those the
    /// `Connection` header names.
    static func forwardable(_ headers: HTTPHeaders, dropping: Set<String> = hopByHopHeaders) -> HTTPHeaders {
        let named = Set(headers.values(for: "Connection").flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
        return HTTPHeaders(headers.fields.filter { field in
            let name = field.name.lowercased()
            return !dropping.contains(name) && !named.contains(name)
        })
    }

    /// Whether the headers announce a chunked body.
    static func isChunked(_ headers: HTTPHeaders) -> Bool {
        headers.values(for: "Transfer-Encoding").contains { $0.lowercased().contains("chunked") }
    }

    /// `data` as a body: chunked when the original was, else with a `Content-Length`.
    static func framed(_ data: Data, chunked: Bool) -> StubBody {
        if chunked { return .chunked(ChunkedBody(data: data)) }
        return data.isEmpty ? .empty : .data(data)
    }

    /// Whether the recorded body (`bytes`) must be gzip-encoded again: it is stored decoded (the cassette says so),
    /// or `Content-Encoding: gzip` was announced but the recording transport delivered the bytes decoded.
    static func needsGzip(_ response: Interaction.Response, bytes: Data) -> Bool {
        if let coding = response.body.contentEncoding?.lowercased(), coding == "gzip" || coding == "x-gzip" { return true }
        guard announcesGzip(response.headers), !bytes.isEmpty else { return false }
        return !(bytes.count >= 2 && bytes[bytes.startIndex] == 0x1F && bytes[bytes.startIndex + 1] == 0x8B)
    }

    /// Whether the headers announce `Content-Encoding: gzip`.
    static func announcesGzip(_ headers: HTTPHeaders) -> Bool {
        guard let coding = headers["Content-Encoding"]?.lowercased().trimmingCharacters(in: .whitespaces) else { return false }
        return coding == "gzip" || coding == "x-gzip"
    }

    private static func unreadableSidecar(_ file: URL, index: Int, cassette: URL, reason: String) -> StubResponse {
        .text("cassette \(cassette.path): the sidecar body \(file.path) of interaction #\(index) cannot be read: \(reason)\n",
              status: 500)
    }
}
