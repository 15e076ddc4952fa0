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
        var text: [UInt8] = []
        text.reserveCapacity(256)
        writeCanonical(to: &text, ignoring: paths.isEmpty ? .none : IgnoredPaths(paths, at: path))
        return String(decoding: text, as: UTF8.self)
    }

    private func writeCanonical(to text: inout [UInt8], ignoring ignored: IgnoredPaths) {
        switch self {
        case .null: text += "null".utf8
        case .bool(let value): text += (value ? "true" : "false").utf8
        case .number(let literal): text += Self.canonicalNumber(literal).utf8
        case .string(let value): Self.writeCanonicalString(value, to: &text)
        case .array(let elements):
            text.append(UInt8(ascii: "["))
            var first = true
            for (index, element) in elements.enumerated() {
                guard let below = ignored.below(index: index) else { continue }
                if !first { text.append(UInt8(ascii: ",")) }
                first = false
                element.writeCanonical(to: &text, ignoring: below)
            }
            text.append(UInt8(ascii: "]"))
        case .object(let members):
            text.append(UInt8(ascii: "{"))
            var first = true
            // By key; of duplicates the last, as the comparison reads them.
            let order = members.indices.sorted { members[$0].key < members[$1].key || (members[$0].key == members[$1].key && $0 < $1) }
            for (position, index) in order.enumerated() {
                let member = members[index]
                if position + 1 < order.count, members[order[position + 1]].key == member.key { continue }
                guard let below = ignored.below(member.key) else { continue }
                if !first { text.append(UInt8(ascii: ",")) }
                first = false
                Self.writeCanonicalString(member.key, to: &text)
                text.append(UInt8(ascii: ":"))
                member.value.writeCanonical(to: &text, ignoring: below)
            }
            text.append(UInt8(ascii: "}"))
        }
    }

    /// A number by its value: an integer as digits (up to 2^53, where doubles are exact), another finite value as
    /// the shortest text that reads back the same double, a literal no double holds as written.
    private static func canonicalNumber(_ literal: String) -> String {
        // Most numbers are short integers already written so: `-`, then 1 to 15 digits without a leading zero.
        let digits = literal.utf8.first == UInt8(ascii: "-") ? literal.utf8.dropFirst() : literal.utf8[...]
        if (1...15).contains(digits.count), digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
           digits.first != UInt8(ascii: "0") || literal == "0" {
            return literal
        }
        guard let value = Double(literal), value.isFinite else { return literal }
        if value == value.rounded(), abs(value) <= 9_007_199_254_740_992 { return String(Int64(value)) }
        return "\(value)"
    }

    private static func writeCanonicalString(_ value: String, to text: inout [UInt8]) {
        text.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                text.append(UInt8(ascii: "\\"))
                text.append(byte)
            case ..<0x20:
                text += "\\u00".utf8
                text.append(hexDigits[Int(byte >> 4)])
                text.append(hexDigits[Int(byte & 0xF)])
            default:
                text.append(byte)
            }
        }
        text.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
