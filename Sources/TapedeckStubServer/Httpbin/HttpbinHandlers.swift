import Foundation
import TapedeckCassette
import TapedeckCore

/// The httpbin endpoints that take parameters.
enum HttpbinHandlers {
    /// The path segment at `index` (0 is the first after the leading slash), percent-decoded.
    static func segment(_ request: RecordedRequest, _ index: Int) -> String? {
        let segments = request.decodedPath.split(separator: "/")
        return segments.indices.contains(index) ? String(segments[index]) : nil
    }

    static func query(_ request: RecordedRequest, _ name: String) -> String? {
        request.queryItems.first { $0.name == name }?.value
    }

    static func badRequest(_ message: String) -> StubResponse {
        .text(message + "\n", status: 400)
    }

    static func status(_ request: RecordedRequest) -> StubResponse {
        guard let code = segment(request, 1).flatMap(Int.init), StubResponse.answerableStatuses.contains(code) else {
            return badRequest("/status/{code} needs a status code between 200 and 599 (a 1xx would leave the client waiting)")
        }
        var response = StubResponse(status: code)
        switch code {
        case 301, 302, 303, 305, 307: response.headers["Location"] = "/redirect/1"
        case 401: response.headers["WWW-Authenticate"] = #"Basic realm="Fake Realm""#
        case 418: response.body = .data(Data("I'm a teapot\n".utf8))
        default: break
        }
        return response
    }

    static func delay(_ request: RecordedRequest) -> StubResponse {
        guard let seconds = segment(request, 1).flatMap(Double.init), seconds >= 0, seconds.isFinite else {
            return badRequest("/delay/{seconds} needs a number of seconds")
        }
        var response = StubResponse.json(HttpbinEcho.json(HttpbinEcho.document(for: request, fields: .anything)))
        response.delay = .milliseconds(Int(min(seconds, 10) * 1000))
        return response
    }

    static func bytes(_ request: RecordedRequest) -> StubResponse {
        guard let count = segment(request, 1).flatMap(Int64.init), count >= 0 else {
            return badRequest("/bytes/{n} needs a byte count")
        }
        return StubResponse(headers: ["Content-Type": "application/octet-stream"], body: .generated(length: count))
    }

    static func streamBytes(_ request: RecordedRequest) -> StubResponse {
        guard let count = segment(request, 1).flatMap(Int64.init), count >= 0 else {
            return badRequest("/stream-bytes/{n} needs a byte count")
        }
        let chunkSize = query(request, "chunk_size").flatMap(Int.init).map { max(1, $0) } ?? 10 * 1024
        return StubResponse(headers: ["Content-Type": "application/octet-stream"],
                            body: .chunked(ChunkedBody(generatedLength: count, chunkSize: chunkSize)))
    }

    static func drip(_ request: RecordedRequest) -> StubResponse {
        let duration = query(request, "duration").flatMap(Double.init) ?? 2
        let count = query(request, "numbytes").flatMap(Int.init) ?? 10
        let code = query(request, "code").flatMap(Int.init) ?? 200
        let initialDelay = query(request, "delay").flatMap(Double.init) ?? 0
        guard count > 0, duration >= 0, initialDelay >= 0, duration.isFinite, initialDelay.isFinite else {
            return badRequest("/drip needs numbytes > 0 and non-negative duration and delay")
        }
        let interval = Duration.milliseconds(Int(min(duration, 60) * 1000 / Double(count)))
        return StubResponse(status: code, headers: ["Content-Type": "application/octet-stream"],
                            body: .chunked(ChunkedBody(data: Data(repeating: UInt8(ascii: "*"), count: count), chunkSize: 1, interval: interval)),
                            delay: .milliseconds(Int(min(initialDelay, 10) * 1000)))
    }

    static func redirect(_ request: RecordedRequest) -> StubResponse {
        guard let count = segment(request, 1).flatMap(Int.init), count >= 1 else {
            return badRequest("/redirect/{n} needs n >= 1")
        }
        return StubResponse(status: 302, headers: ["Location": count == 1 ? "/get" : "/redirect/\(count - 1)"])
    }

    static func basicAuth(_ request: RecordedRequest, hidden: Bool) -> StubResponse {
        let offset = 1
        guard let user = segment(request, offset), let password = segment(request, offset + 1) else {
            return badRequest("basic-auth needs /{user}/{password}")
        }
        let expected = "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
        guard request.headers["Authorization"] == expected else {
            if hidden { return StubResponse(status: 404) }
            return StubResponse(status: 401, headers: ["WWW-Authenticate": #"Basic realm="Fake Realm""#])
        }
        return .json(HttpbinEcho.json(["authenticated": true, "user": user]))
    }

    static func gzip(_ request: RecordedRequest) -> StubResponse {
        var document = HttpbinEcho.document(for: request, fields: .method)
        document["gzipped"] = true
        return StubResponse(headers: ["Content-Type": "application/json", "Content-Encoding": "gzip"],
                            body: .data(ContentCoding.gzip(HttpbinEcho.json(document))))
    }

    static func responseHeaders(_ request: RecordedRequest) -> StubResponse {
        var response = StubResponse.json(Data())
        var echoed: [(String, String)] = [("Content-Type", "application/json")]
        for item in request.queryItems {
            response.headers.add(name: item.name, value: item.value ?? "")
            echoed.append((item.name, item.value ?? ""))
        }
        response.body = .data(HttpbinEcho.json(HttpbinEcho.multiValued(echoed)))
        return response
    }
}
