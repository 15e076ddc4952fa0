import Crypto
import Foundation
import TapedeckCore

/// The httpbin endpoints for what a client keeps between requests: cookies, cache validators and Digest
/// authentication.
enum HttpbinStateHandlers {
    /// `/cookies`: the cookies the request sent, as `{"cookies": {name: value}}`.
    static func cookies(_ request: RecordedRequest) -> StubResponse {
        .json(HttpbinEcho.json(["cookies": sentCookies(request)]))
    }

    /// `/cookies/set?name=value…`: sets each as a cookie (`Path=/`) and redirects to `/cookies`.
    static func setCookies(_ request: RecordedRequest) -> StubResponse {
        var response = StubResponse(status: 302, headers: ["Location": "/cookies"])
        for item in request.queryItems { response.headers.add(name: "Set-Cookie", value: "\(item.name)=\(item.value ?? ""); Path=/") }
        return response
    }

    /// `/cookies/delete?name…`: expires each named cookie and redirects to `/cookies`.
    static func deleteCookies(_ request: RecordedRequest) -> StubResponse {
        var response = StubResponse(status: 302, headers: ["Location": "/cookies"])
        for item in request.queryItems {
            response.headers.add(name: "Set-Cookie", value: "\(item.name)=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; Path=/")
        }
        return response
    }

    private static func sentCookies(_ request: RecordedRequest) -> [String: String] {
        var cookies: [String: String] = [:]
        for header in request.headers.values(for: "Cookie") {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if let name = parts.first, !name.isEmpty { cookies[name] = parts.count > 1 ? parts[1] : "" }
            }
        }
        return cookies
    }

    /// `/etag/{etag}`: `ETag: "{etag}"`; `304` when `If-None-Match` names it (or is `*`), `412` when `If-Match`
    /// does not.
    static func etag(_ request: RecordedRequest) -> StubResponse {
        guard let tag = HttpbinHandlers.segment(request, 1) else { return HttpbinHandlers.badRequest("/etag/{etag} needs a tag") }
        let quoted = "\"\(tag)\""
        if let noneMatch = request.headers["If-None-Match"], tags(noneMatch).contains(where: { $0 == quoted || $0 == "*" }) {
            return StubResponse(status: 304, headers: ["ETag": quoted])
        }
        if let match = request.headers["If-Match"], !tags(match).contains(where: { $0 == quoted || $0 == "*" }) {
            return StubResponse(status: 412)
        }
        var response = StubResponse.echoing(request)
        response.headers["ETag"] = quoted
        return response
    }

    private static func tags(_ header: String) -> [String] {
        header.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "W/", with: "") }
    }

    /// `/cache`: `304` for a conditional request (`If-Modified-Since` or `If-None-Match`), else `200` with
    /// `Last-Modified` and `ETag`.
    static func cache(_ request: RecordedRequest) -> StubResponse {
        if request.headers.contains("If-Modified-Since") || request.headers.contains("If-None-Match") { return StubResponse(status: 304) }
        var response = StubResponse.echoing(request)
        response.headers["Last-Modified"] = HTTPDate.format(Date())
        response.headers["ETag"] = "\"\(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))\""
        return response
    }

    /// `/cache/{seconds}`: `Cache-Control: public, max-age={seconds}`.
    static func cacheFor(_ request: RecordedRequest) -> StubResponse {
        guard let seconds = HttpbinHandlers.segment(request, 1).flatMap(Int.init), seconds >= 0 else {
            return HttpbinHandlers.badRequest("/cache/{seconds} needs a number of seconds")
        }
        var response = StubResponse.echoing(request)
        response.headers["Cache-Control"] = "public, max-age=\(seconds)"
        return response
    }

    /// `/digest-auth/{qop}/{user}/{password}[/{algorithm}]`: Digest authentication (RFC 7616) with `qop` `auth`
    /// (or `auth-int`) and `MD5` (the default) or `SHA-256`; `{"authenticated": true, "user": …}` when the
    /// `Authorization` answers the challenge, else `401` with a fresh challenge.
    static func digestAuth(_ request: RecordedRequest) -> StubResponse {
        guard let qop = HttpbinHandlers.segment(request, 1), let user = HttpbinHandlers.segment(request, 2),
              let password = HttpbinHandlers.segment(request, 3) else {
            return HttpbinHandlers.badRequest("/digest-auth needs /{qop}/{user}/{password}[/{algorithm}]")
        }
        let algorithm = HttpbinHandlers.segment(request, 4) ?? "MD5"
        guard algorithm == "MD5" || algorithm == "SHA-256", qop == "auth" || qop == "auth-int" else {
            return HttpbinHandlers.badRequest("digest-auth supports qop auth or auth-int and algorithm MD5 or SHA-256")
        }
        let realm = "me@tapedeck.test"
        if let header = request.headers["Authorization"], header.lowercased().hasPrefix("digest "),
           answers(parameters(of: String(header.dropFirst(7))), user: user, password: password, realm: realm,
                   algorithm: algorithm, method: request.method.rawValue, body: request.body) {
            return .json(HttpbinEcho.json(["authenticated": true, "user": user]))
        }
        let nonce = UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let challenge = #"Digest realm="\#(realm)", nonce="\#(nonce)", qop="\#(qop)", opaque="tapedeck-opaque", algorithm=\#(algorithm)"#
        return StubResponse(status: 401, headers: ["WWW-Authenticate": challenge])
    }

    /// Whether the Digest `Authorization` parameters answer a challenge for `user` and `password`.
    private static func answers(_ fields: [String: String], user: String, password: String, realm: String, algorithm: String,
                                method: String, body: Data) -> Bool {
        guard fields["username"] == user, fields["realm"] == realm, let nonce = fields["nonce"], let uri = fields["uri"],
              let response = fields["response"], let qop = fields["qop"], let nc = fields["nc"], let cnonce = fields["cnonce"],
              (fields["algorithm"] ?? "MD5").uppercased() == algorithm.uppercased() else { return false }
        let hash: (String) -> String = algorithm == "SHA-256" ? { SHA256.hash(data: Data($0.utf8)).lowercaseHex } : { Insecure.MD5.hash(data: Data($0.utf8)).lowercaseHex }
        let ha1 = hash("\(user):\(realm):\(password)")
        let ha2 = qop == "auth-int" ? hash("\(method):\(uri):\(algorithm == "SHA-256" ? SHA256.hash(data: body).lowercaseHex : Insecure.MD5.hash(data: body).lowercaseHex)")
            : hash("\(method):\(uri)")
        return hash("\(ha1):\(nonce):\(nc):\(cnonce):\(qop):\(ha2)") == response.lowercased()
    }

    /// `name=value` and `name="quoted value"` pairs of an auth header, names lowercased.
    private static func parameters(of text: String) -> [String: String] {
        var fields: [String: String] = [:]
        var rest = Substring(text)
        while !rest.isEmpty {
            rest = rest.drop { $0 == " " || $0 == "," }
            guard let equals = rest.firstIndex(of: "=") else { break }
            let name = rest[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            rest = rest[rest.index(after: equals)...]
            var value = ""
            if rest.first == "\"" {
                rest = rest.dropFirst()
                while let character = rest.first, character != "\"" {
                    if character == "\\" { rest = rest.dropFirst() }
                    if let next = rest.first { value.append(next) }
                    rest = rest.dropFirst()
                }
                rest = rest.dropFirst()
            } else {
                let end = rest.firstIndex(of: ",") ?? rest.endIndex
                value = rest[..<end].trimmingCharacters(in: .whitespaces)
                rest = rest[end...]
            }
            fields[name] = value
        }
        return fields
    }
}

extension StubResponse {
    /// httpbin's echo of the request's `args`, `headers`, `origin` and `url`.
    fileprivate static func echoing(_ request: RecordedRequest) -> StubResponse {
        .json(HttpbinEcho.json(HttpbinEcho.document(for: request, fields: .get)))
    }
}
