import Foundation
import TapedeckCore

extension CassetteJSON {
    /// The value written so that two values are equal by ``semanticallyEquals(_:ignoring:path:)`` exactly when their
    /// canonical texts are equal: object members sorted by key (the last of duplicates kept, as the comparison
    /// reads them), numbers by value, strings escaped, no whitespace; members and elements whose dotted path (from
    /// `path`) is in `ignoring` are left out. One text stands for a value wherever many values are compared with
    /// many (a request body against every recorded one).
    ///
    /// ```swift
    /// try CassetteJSON.parse(Data(#"{"b":1.0,"a":[true]}"#.utf8)).canonical()   // {"a":[true],"b":1}
    /// ```
    public func canonical(ignoring paths: Set<JSONPath> = [], path: String = "") -> String {
        var text = ""
        writeCanonical(to: &text, ignoring: paths, path: path)
        return text
    }

    private func writeCanonical(to text: inout String, ignoring paths: Set<JSONPath>, path: String) {
        switch self {
        case .null: text += "null"
        case .bool(let value): text += value ? "true" : "false"
        case .number(let literal): text += Self.canonicalNumber(literal)
        case .string(let value): Self.writeCanonicalString(value, to: &text)
        case .array(let elements):
            text += "["
            var first = true
            for (index, element) in elements.enumerated() {
                let child = path.isEmpty ? "\(index)" : "\(path).\(index)"
                if !paths.isEmpty, JSONPathPattern.matches(child, any: paths) { continue }
                if !first { text += "," }
                first = false
                element.writeCanonical(to: &text, ignoring: paths, path: child)
            }
            text += "]"
        case .object(let members):
            var latest: [String: CassetteJSON] = [:]
            for member in members { latest[member.key] = member.value }
            text += "{"
            var first = true
            for key in latest.keys.sorted() {
                let child = path.isEmpty ? key : "\(path).\(key)"
                if !paths.isEmpty, JSONPathPattern.matches(child, any: paths) { continue }
                if !first { text += "," }
                first = false
                Self.writeCanonicalString(key, to: &text)
                text += ":"
                latest[key]!.writeCanonical(to: &text, ignoring: paths, path: child)
            }
            text += "}"
        }
    }

    /// A number by its value: an integer as digits (up to 2^53, where doubles are exact), another finite value as
    /// the shortest text that reads back the same double, a literal no double holds as written.
    private static func canonicalNumber(_ literal: String) -> String {
        guard let value = Double(literal), value.isFinite else { return literal }
        if value == value.rounded(), abs(value) <= 9_007_199_254_740_992 { return String(Int64(value)) }
        return "\(value)"
    }

    private static func writeCanonicalString(_ value: String, to text: inout String) {
        text += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case _ where scalar.value < 0x20: text += String(format: "\\u%04x", scalar.value)
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
