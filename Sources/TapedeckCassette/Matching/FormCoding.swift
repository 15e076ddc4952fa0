import Foundation

/// `application/x-www-form-urlencoded` decoding, for query strings and form bodies.
enum FormCoding {
    /// Percent-decodes `text`, with `+` as a space.
    static func decode(_ text: Substring) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else { return String(text) }
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    /// The `(name, value)` pairs of a form body, in order.
    static func pairs(_ data: Data) -> [(name: String, value: String)] {
        let text = String(decoding: data, as: UTF8.self)
        return text.split(separator: "&").map { item in
            let pieces = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (decode(pieces[0]), pieces.count > 1 ? decode(pieces[1]) : "")
        }
    }
}
