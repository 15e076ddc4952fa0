/// Block strings (`"""…"""`): the value the specification's BlockStringValue algorithm gives their raw text, and
/// the shortest spelling of a value, so that two block strings with the same value normalize to the same text.
enum GraphQLBlockString {
    /// The value of a block string whose raw text (between the quotes, `\"""` already turned into `"""`) is `raw`:
    /// the common indentation of all lines but the first is removed, then leading and trailing blank lines.
    static func value(raw: String) -> String {
        let lines = splitLines(raw)
        var commonIndent: Int?
        var firstNonBlank: Int?
        var lastNonBlank = -1
        for (index, line) in lines.enumerated() {
            let indent = line.prefix { $0 == " " || $0 == "\t" }.count
            if indent == line.count { continue }
            firstNonBlank = firstNonBlank ?? index
            lastNonBlank = index
            if index != 0, indent < (commonIndent ?? Int.max) { commonIndent = indent }
        }
        guard let firstNonBlank else { return "" }
        let dedented = lines.enumerated().map { index, line in index == 0 ? line : Substring(line.dropFirst(commonIndent ?? 0)) }
        return dedented[firstNonBlank...lastNonBlank].joined(separator: "\n")
    }

    /// The shortest block string whose value is `value` (what graphql-js's `printBlockString` writes when asked to
    /// minimize): `"""` inside is escaped, and a line break is added only where the value would otherwise change.
    static func minimized(_ value: String) -> String {
        let escaped = value.replacingOccurrences(of: #"""""#, with: #"\""""#)
        let lines = splitLines(escaped)
        let forceLeadingNewLine = lines.count > 1
            && lines.dropFirst().allSatisfy { $0.isEmpty || $0.first == " " || $0.first == "\t" }
        let hasTrailingTripleQuotes = escaped.hasSuffix(#"\""""#)
        let forceTrailingNewLine = (value.hasSuffix("\"") && !hasTrailingTripleQuotes) || value.hasSuffix("\\")
        return #"""""# + (forceLeadingNewLine ? "\n" : "") + escaped + (forceTrailingNewLine ? "\n" : "") + #"""""#
    }

    /// Lines split at `\r\n`, `\n` or `\r`.
    private static func splitLines(_ text: String) -> [Substring] {
        var lines: [Substring] = []
        var start = text.startIndex
        var index = text.startIndex
        // `\r\n` is one Character in Swift, so one comparison per Character finds all three line terminators.
        while index < text.endIndex {
            let character = text[index]
            if character == "\n" || character == "\r" || character == "\r\n" {
                lines.append(text[start..<index])
                start = text.index(after: index)
            }
            index = text.index(after: index)
        }
        lines.append(text[start...])
        return lines
    }
}
