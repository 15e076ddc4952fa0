/// Cookie paths (RFC 6265 §5.1.4): the default path of a request, and path-match.
enum CookiePath {
    /// The directory of `requestPath`: `/` when it is empty, does not start with `/` or has no other `/`;
    /// otherwise everything before its last `/`.
    static func defaultPath(for requestPath: String) -> String {
        let bytes = requestPath.utf8
        guard bytes.first == UInt8(ascii: "/"),
              let lastSlash = bytes.lastIndex(of: UInt8(ascii: "/")), lastSlash != bytes.startIndex
        else { return "/" }
        return String(decoding: bytes[..<lastSlash], as: UTF8.self)
    }

    /// §5.1.4 path-match: the paths are identical, or `cookiePath` is a prefix of `requestPath` that ends with `/`
    /// or is followed by `/` in `requestPath`.
    static func matches(requestPath: String, cookiePath: String) -> Bool {
        matchLength(requestPath: requestPath, cookiePath: cookiePath) != nil
    }

    /// ``matches(requestPath:cookiePath:)`` that returns the length of `cookiePath` in bytes (for ordering) when the
    /// paths match, `nil` otherwise.
    static func matchLength(requestPath: String, cookiePath: String) -> Int? {
        let fast = requestPath.utf8.withContiguousStorageIfAvailable { request in
            cookiePath.utf8.withContiguousStorageIfAvailable { cookie in
                matchLength(request: request, cookie: cookie)
            }
        }
        if let fast, let result = fast { return result }
        return matchLength(request: Array(requestPath.utf8)[...], cookie: Array(cookiePath.utf8)[...])
    }

    private static func matchLength<Bytes: RandomAccessCollection<UInt8>>(request: Bytes, cookie: Bytes) -> Int?
    where Bytes.Index == Int {
        let count = cookie.count
        guard request.count >= count, request.starts(with: cookie) else { return nil }
        if request.count == count || cookie.last == UInt8(ascii: "/") { return count }
        return request[request.startIndex + count] == UInt8(ascii: "/") ? count : nil
    }
}
