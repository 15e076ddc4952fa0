/// Input echoed in an error message, cut short: a message quotes what it refuses, but a 10 MB value quoted whole
/// buries the message (and takes its time to print). Every reader that echoes a value from a file or a request
/// passes it through here.
///
/// ```swift
/// Shown.quoted(String(repeating: "x", count: 10_000_000))   // "\"xxxx…xxx…\" (10000000 characters)"
/// ```
package enum Shown {
    /// The most characters of an input a message shows.
    package static let limit = 80

    /// `text` itself when it has at most `limit` characters, else its first `limit - 1` and "…".
    package static func truncated(_ text: some StringProtocol, limit: Int = Shown.limit) -> String {
        // Count no further than needed: the text may be very long.
        guard let cut = text.index(text.startIndex, offsetBy: limit, limitedBy: text.endIndex), cut != text.endIndex else {
            return String(text)
        }
        return String(text[..<text.index(text.startIndex, offsetBy: max(0, limit - 1))]) + "…"
    }

    /// `text` in double quotes, cut as ``truncated(_:limit:)`` does, with its length when cut.
    package static func quoted(_ text: some StringProtocol, limit: Int = Shown.limit) -> String {
        let shown = truncated(text, limit: limit)
        return shown.count == text.count ? "\"\(shown)\"" : "\"\(shown)\" (\(text.count) characters)"
    }
}
