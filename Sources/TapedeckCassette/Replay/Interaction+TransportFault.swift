import Foundation

extension Interaction.Outcome {
    /// What a client meets under `fault`, as `CurlTransport` reports it when a server does it at the socket (see
    /// `TransportFault`'s table), so that a ``ReplayFault`` gives the same `URLError`, status and body in process as
    /// over a stub server's sockets: a failure before the head, or a response (whose body may end in an
    /// ``Interaction/Response/interruption``). Faults that end in the client's timeout fail at once.
    package init(_ fault: TransportFault) {
        func injected(_ code: URLError.Code) -> Interaction.Failure {
            Interaction.Failure(code: code.rawValue, message: "injected fault: \(fault)")
        }
        let octets: HTTPHeaders = ["Content-Type": "application/octet-stream"]
        switch fault {
        case .partialBody(let sent, let declared):
            let declared = max(1, declared)
            var headers = octets
            headers["Content-Length"] = String(declared)
            self = .response(Interaction.Response(
                statusCode: 200, reasonPhrase: "OK", headers: headers,
                body: CassetteBody(GeneratedBytes.data(count: min(max(0, sent), declared - 1))), interruption: injected(.networkConnectionLost)))
        case .stall(let sent):
            var headers = octets
            headers["Transfer-Encoding"] = "chunked"
            self = .response(Interaction.Response(statusCode: 200, reasonPhrase: "OK", headers: headers,
                                                  body: CassetteBody(GeneratedBytes.data(count: max(0, sent))), interruption: injected(.timedOut)))
        case .status(let status):
            self = .response(Interaction.Response(statusCode: status, headers: ["Content-Length": "0"]))
        case .malformedResponse(let bytes):
            self = Self.parsing(bytes, failure: injected)
        case .closeWithoutResponse, .reset, .malformedStatusLine, .malformedHeaders, .noResponse:
            self = .failure(injected(fault.codeBeforeHead ?? .badServerResponse))
        }
    }

    /// What a client makes of `bytes` sent as the whole response before the connection closes: a response when they
    /// begin with a valid HTTP/1.x head (an interim `1xx` head is skipped), its body cut at `Content-Length`,
    /// de-chunked, or read to the close; `.badServerResponse` when they do not. A body shorter than announced, or
    /// chunks that do not parse, end in `.networkConnectionLost` after the head.
    private static func parsing(_ bytes: Data, failure: (URLError.Code) -> Interaction.Failure) -> Interaction.Outcome {
        let bytes = Data(bytes)
        guard let headEnd = bytes.range(of: Data("\r\n\r\n".utf8)) else { return .failure(failure(.badServerResponse)) }
        let lines = String(decoding: bytes[..<headEnd.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusLine = lines[0].split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard statusLine.count >= 2, ["HTTP/1.0", "HTTP/1.1"].contains(statusLine[0]), statusLine[1].count == 3,
              let status = Int(statusLine[1]), status >= 100 else { return .failure(failure(.badServerResponse)) }
        if status < 200 { return parsing(bytes[headEnd.upperBound...], failure: failure) }
        var headers = HTTPHeaders()
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex, !line.contains("\u{0}") else {
                return .failure(failure(.badServerResponse))
            }
            headers.add(name: String(line[..<colon]), value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var body = Data(bytes[headEnd.upperBound...])
        var complete = true
        if headers["Transfer-Encoding"]?.lowercased().contains("chunked") == true {
            let chunks = dechunked(body)
            body = chunks.body
            complete = chunks.complete
        } else if let length = headers["Content-Length"].flatMap({ Int($0) }), length >= 0 {
            complete = body.count >= length
            body = body.prefix(length)
        }
        return .response(Interaction.Response(
            statusCode: status, reasonPhrase: statusLine.count > 2 ? String(statusLine[2]) : "", headers: headers,
            body: CassetteBody(body), interruption: complete ? nil : failure(.networkConnectionLost)))
    }

    /// The body a chunked `data` carries, and whether its last chunk (of size 0) arrived whole.
    private static func dechunked(_ data: Data) -> (body: Data, complete: Bool) {
        var body = Data()
        var rest = data[...]
        while let lineEnd = rest.range(of: Data("\r\n".utf8)) {
            let sizeText = String(decoding: rest[..<lineEnd.lowerBound], as: UTF8.self).prefix { $0 != ";" }
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16), size >= 0 else { return (body, false) }
            if size == 0 { return (body, true) }
            guard size <= rest.endIndex - lineEnd.upperBound - 2 else { return (body, false) }
            body.append(rest[lineEnd.upperBound..<lineEnd.upperBound + size])
            rest = rest[(lineEnd.upperBound + size + 2)...]
        }
        return (body, false)
    }
}
