import CMicroHTTPD

extension StubResponse {
    /// The reason phrase the server sends on the status line for `status` (libmicrohttpd's own, `"Not Found"` for
    /// 404), or an empty string for a status it has none for. Readers of other tools' files compare against it.
    static func reasonPhrase(for status: Int) -> String {
        guard let status = UInt32(exactly: status) else { return "" }
        return MHD_get_reason_phrase_for(status).map { String(cString: $0) } ?? ""
    }
}
