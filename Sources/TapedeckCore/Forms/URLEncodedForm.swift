import Foundation

/// `application/x-www-form-urlencoded` decoding, for form bodies and query strings: `+` is a space and
/// percent-escapes are decoded (text whose escapes are not valid UTF-8 is kept as written). Pure functions.
///
/// ```swift
/// URLEncodedForm.pairs(Data("a=1&b=x+y&c".utf8))  // [("a", "1"), ("b", "x y"), ("c", "")]
/// ```
public enum URLEncodedForm {
    /// Percent-decodes `text`, with `+` as a space.
    public static func decode(_ text: Substring) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else { return String(text) }
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    /// The `(name, value)` pairs of a form body, in order; a pair without `=` has an empty value and empty pairs
    /// (`a=1&&b=2`) are skipped.
    public static func pairs(_ data: Data) -> [(name: String, value: String)] {
        let text = String(decoding: data, as: UTF8.self)
        return text.split(separator: "&").map { item in
            let pieces = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (decode(pieces[0]), pieces.count > 1 ? decode(pieces[1]) : "")
        }
    }
}
