import Foundation

/// A request as the `curl` command line that sends it, secrets masked.
extension HTTPRequest {
    /// A `curl` command line that sends this request, for logs and bug reports, with secrets masked: the values of
    /// sensitive headers (`SensitiveHeaderNames.default`; an `Authorization` keeps its scheme, `Bearer ***`), of query
    /// parameters with such names, and the URL's password. See ``curlDescription(masking:)``.
    ///
    /// ```swift
    /// var request = HTTPRequest(method: .post, url: URL(string: "https://api.example.com/items?api_key=k1")!)
    /// request.headers["Authorization"] = "Bearer abc"
    /// request.headers["Content-Type"] = "application/json"
    /// request.body = .data(Data(#"{"name":"it's"}"#.utf8))
    /// print(request.curlDescription)
    /// // curl -X POST 'https://api.example.com/items?api_key=***' \
    /// //   -H 'Authorization: Bearer ***' \
    /// //   -H 'Content-Type: application/json' \
    /// //   --data-raw '{"name":"it'\''s"}' \
    /// //   --location --max-redirs 16
    /// ```
    public var curlDescription: String { curlDescription(masking: .default) }

    /// A `curl` command line that sends this request, masking the values of headers and query parameters `masking`
    /// names (pass `nil` to reveal everything).
    ///
    /// Arguments are quoted for a POSIX shell where they need it. A text body is passed with `--data-raw`; a binary one is piped in
    /// from `printf` with octal escapes; a file body is `--data-binary @file`; a stream body cannot be written out and
    /// is read from standard input, which a trailing comment says. Bodies over 64 KiB are left out, with a comment.
    /// A body without `Content-Type` gets `-H 'Content-Type:'` so that curl does not add its form type.
    public func curlDescription(masking: SensitiveHeaderNames?) -> String {
        // The command, method and URL on the first line; then one option (with its value) per line.
        var first = ["curl"]
        var lines: [String] = []
        var prefix = ""
        var trailingComment: String?
        if method == .head {
            first.append("--head")
        } else if method != .get || !body.isEmpty {
            first += ["-X", CurlQuoting.quote(method.rawValue)]
        }
        let urlText = CurlQuoting.maskedURL(url, masking: masking)
        if urlText.contains(where: { "[]{}".contains($0) }) { first.append("--globoff") }
        first.append(CurlQuoting.quote(urlText))

        for field in headers {
            var value = field.value
            if let masking, masking.contains(field.name) { value = CurlQuoting.maskedHeaderValue(value, name: field.name) }
            lines.append("-H " + CurlQuoting.quote(value.isEmpty ? "\(field.name);" : "\(field.name): \(value)"))
        }
        if !body.isEmpty && !headers.contains("Content-Type") { lines.append("-H " + CurlQuoting.quote("Content-Type:")) }

        switch body {
        case .none:
            break
        case .data(let data) where data.count > CurlQuoting.bodyLimit:
            trailingComment = "# a body of \(data.count) bytes is not shown"
        case .data(let data):
            if let text = String(data: data, encoding: .utf8), !text.contains("\0") {
                lines.append("--data-raw " + CurlQuoting.quote(text))
            } else {
                prefix = "printf " + CurlQuoting.printfFormat(data) + " | "
                lines.append("--data-binary @-")
            }
        case .file(let file):
            lines.append("--data-binary " + CurlQuoting.quote("@" + file.path))
        case .stream(let stream):
            lines.append("--data-binary @-")
            trailingComment = "# the body is a stream" + (stream.length.map { " of \($0) bytes" } ?? "") + ": pipe it to standard input"
        }

        if case .follow(let maximum) = redirectPolicy { lines.append("--location --max-redirs \(maximum)") }
        if let totalTimeout { lines.append("--max-time " + CurlQuoting.quote(String(totalTimeout))) }
        if !tls.verifiesPeer { lines.append("--insecure") }
        if !tls.pinnedPublicKeyHashes.isEmpty {
            lines.append("--pinnedpubkey " + CurlQuoting.quote(tls.pinnedPublicKeyHashes.map { "sha256//" + $0 }.joined(separator: ";")))
        }
        switch httpVersion {
        case .automatic: break
        case .http1_1: lines.append("--http1.1")
        case .http2: lines.append(url.scheme?.lowercased() == "http" ? "--http2-prior-knowledge" : "--http2")
        }
        switch responseBody {
        case .memory, .stream: break
        case .file(let file): lines.append("--output " + CurlQuoting.quote(file.path))
        case .resumingFile(let file, let length): lines.append("--continue-at \(length) --output " + CurlQuoting.quote(file.path))
        }

        var command = prefix + first.joined(separator: " ")
        for line in lines { command += " \\\n  " + line }
        if let trailingComment { command += "  " + trailingComment }
        return command
    }
}

/// Quoting and masking for `HTTPRequest.curlDescription(masking:)`.
enum CurlQuoting {
    static let bodyLimit = 64 * 1024
    static let mask = "***"

    /// `text` as one POSIX shell word: as it is when only safe characters, else in single quotes with `'` as `'\''`.
    static func quote(_ text: String) -> String {
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-".utf8)
        if !text.isEmpty && text.utf8.allSatisfy({ safe.contains($0) }) { return text }
        return "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    /// A masked header value; `Authorization`-like values keep their scheme (`Bearer ***`).
    static func maskedHeaderValue(_ value: String, name: String) -> String {
        let lowered = name.lowercased()
        if lowered == "authorization" || lowered == "proxy-authorization",
           let space = value.firstIndex(of: " "), !value[..<space].isEmpty {
            return value[..<space] + " " + mask
        }
        return mask
    }

    /// The URL with its password and sensitive query parameter values masked, otherwise as it was written.
    static func maskedURL(_ url: URL, masking: SensitiveHeaderNames?) -> String {
        guard let masking, var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return url.absoluteString }
        var changed = false
        if components.percentEncodedPassword != nil {
            components.percentEncodedPassword = mask
            changed = true
        }
        if let items = components.percentEncodedQueryItems, items.contains(where: { isSensitive($0.name, masking) }) {
            components.percentEncodedQueryItems = items.map { item in
                isSensitive(item.name, masking) && item.value != nil ? URLQueryItem(name: item.name, value: mask) : item
            }
            changed = true
        }
        return changed ? (components.string ?? url.absoluteString) : url.absoluteString
    }

    private static func isSensitive(_ encodedName: String, _ masking: SensitiveHeaderNames) -> Bool {
        masking.contains(encodedName.removingPercentEncoding ?? encodedName)
    }

    /// A quoted `printf` format that writes `data` exactly: printable ASCII as it is, anything else as `\ooo`.
    static func printfFormat(_ data: Data) -> String {
        var format = ""
        for byte in data {
            switch byte {
            case UInt8(ascii: "%"): format += "%%"
            case UInt8(ascii: "\\"): format += "\\\\"
            case UInt8(ascii: "'"): format += "\\047"
            case 0x20...0x7E: format.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let octal = String(byte, radix: 8)
                format += "\\" + String(repeating: "0", count: 3 - octal.count) + octal
            }
        }
        return "'" + format + "'"
    }
}
