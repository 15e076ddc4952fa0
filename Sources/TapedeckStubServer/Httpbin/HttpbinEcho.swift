import Foundation
import TapedeckCore

/// Builds httpbin's echo documents (`args`, `data`, `files`, `form`, `headers`, `json`, `method`, `origin`, `url`)
/// from a recorded request.
enum HttpbinEcho {
    /// The parts of the echo an endpoint includes.
    struct Fields: OptionSet {
        let rawValue: Int
        static let body = Fields(rawValue: 1)
        static let method = Fields(rawValue: 2)
        static let get: Fields = []
        static let anything: Fields = [.body, .method]
    }

    static func document(for request: RecordedRequest, fields: Fields) -> [String: Any] {
        var document: [String: Any] = [
            "args": multiValued(request.queryItems.map { ($0.name, $0.value ?? "") }),
            "headers": headers(request.headers),
            "origin": "127.0.0.1",
            "url": url(of: request),
        ]
        if fields.contains(.method) { document["method"] = request.method.rawValue }
        if fields.contains(.body) {
            let (form, files, data) = decodeBody(request)
            document["form"] = form
            document["files"] = files
            document["data"] = data
            document["json"] = (try? JSONSerialization.jsonObject(with: request.body, options: [.fragmentsAllowed])) ?? NSNull()
        }
        return document
    }

    /// Pretty, key-sorted JSON, as httpbin prints it.
    static func json(_ object: Any) -> Data {
        (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])) ?? Data("{}".utf8)
    }

    /// Values of repeated names become arrays, as in httpbin.
    static func multiValued(_ pairs: [(String, String)]) -> [String: Any] {
        var result: [String: Any] = [:]
        for (name, value) in pairs {
            switch result[name] {
            case nil: result[name] = value
            case let existing as String: result[name] = [existing, value]
            case let existing as [String]: result[name] = existing + [value]
            default: break
            }
        }
        return result
    }

    /// Headers by name; repeated headers are joined with commas.
    static func headers(_ headers: HTTPHeaders) -> [String: String] {
        var result: [String: String] = [:]
        for field in headers {
            let name = canonicalName(field.name)
            result[name] = result[name].map { "\($0),\(field.value)" } ?? field.value
        }
        return result
    }

    /// `content-type` → `Content-Type`.
    static func canonicalName(_ name: String) -> String {
        name.split(separator: "-", omittingEmptySubsequences: false)
            .map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }
            .joined(separator: "-")
    }

    static func url(of request: RecordedRequest) -> String {
        let host = request.headers["Host"] ?? "127.0.0.1"
        return "http://\(host)\(request.path)\(request.query.map { "?\($0)" } ?? "")"
    }

    /// `form` and `files` for form bodies; otherwise the body as text (or a base64 data URL when it is not UTF-8).
    private static func decodeBody(_ request: RecordedRequest) -> (form: [String: Any], files: [String: Any], data: String) {
        let contentType = request.headers["Content-Type"] ?? ""
        let mime = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        if mime == "application/x-www-form-urlencoded" {
            return (multiValued(URLEncodedForm.pairs(request.body).map { ($0.name, $0.value) }), [:], "")
        }
        if mime == "multipart/form-data", let parts = try? MultipartParser.parts(of: request.body, contentType: contentType) {
            var fields: [(String, String)] = []
            var files: [(String, String)] = []
            for part in parts {
                let name = part.name ?? ""
                if part.fileName != nil {
                    files.append((name, text(part.body, contentType: part.contentType)))
                } else {
                    fields.append((name, String(decoding: part.body, as: UTF8.self)))
                }
            }
            return (multiValued(fields), multiValued(files), "")
        }
        return ([:], [:], text(request.body, contentType: contentType))
    }

    private static func text(_ data: Data, contentType: String?) -> String {
        if let string = String(data: data, encoding: .utf8) { return string }
        return "data:\(contentType ?? "application/octet-stream");base64,\(data.base64EncodedString())"
    }
}
