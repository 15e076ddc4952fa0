import Foundation

/// The common case of the ``MatchRule/jsonRPC(ignoringParams:)`` rule without reading JSON: a client sending a call
/// again as it was recorded, but for its `id` (every client numbers its own calls). Two bodies whose bytes are the
/// same once the value of one top-level `"id"` member is left out of each are the same call; any other pair goes
/// to the full reading (``JSONRPCReadings``).
enum JSONRPCQuickComparison {
    /// Whether `a` and `b` are one JSON object each, the same bytes but for the value of their top-level `"id"`.
    static func sameButForID(_ a: Data, _ b: Data) -> Bool {
        a.withUnsafeBytes { x in
            b.withUnsafeBytes { y in
                let left = x.bindMemory(to: UInt8.self), right = y.bindMemory(to: UInt8.self)
                guard let i = idValue(in: left), let j = idValue(in: right), i.lowerBound == j.lowerBound,
                      left.count - i.upperBound == right.count - j.upperBound else { return false }
                return memcmp(left.baseAddress!, right.baseAddress!, i.lowerBound) == 0
                    && memcmp(left.baseAddress! + i.upperBound, right.baseAddress! + j.upperBound, left.count - i.upperBound) == 0
            }
        }
    }

    /// Where the value of the top-level `"id"` member of a JSON object starts and ends, or `nil` when the bytes are
    /// not an object, have no such member or one whose value is not a number or a string. The scan reads past
    /// strings (escapes included) and nesting; it does not check that the rest is JSON (the full reading does, when
    /// the quick answer is no, and an answer of yes needs the same bytes on both sides).
    static func idValue(in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        var index = 0
        func skipWhitespace() { while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 { index += 1 } }
        /// Moves past a string starting at `index` (a quote); returns its content's range.
        func skipString() -> Range<Int>? {
            let start = index + 1
            index += 1
            while index < bytes.count {
                if bytes[index] == backslash { index += 2; continue }
                if bytes[index] == quote { index += 1; return start..<(index - 1) }
                index += 1
            }
            return nil
        }
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return nil }
        index += 1
        var depth = 1
        var expectingKey = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == quote {
                guard let content = skipString() else { return nil }
                if depth == 1 && expectingKey {
                    expectingKey = false
                    let isID = content.count == 2 && bytes[content.lowerBound] == UInt8(ascii: "i") && bytes[content.lowerBound + 1] == UInt8(ascii: "d")
                    skipWhitespace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                    index += 1
                    guard isID else { continue }
                    skipWhitespace()
                    let start = index
                    guard index < bytes.count else { return nil }
                    if bytes[index] == quote {
                        guard skipString() != nil else { return nil }
                    } else {
                        while index < bytes.count, bytes[index] != UInt8(ascii: ","), bytes[index] != UInt8(ascii: "}"),
                              bytes[index] != 0x20, bytes[index] != 0x0A, bytes[index] != 0x0D, bytes[index] != 0x09 { index += 1 }
                        // A number: digits, sign, point and exponent only.
                        guard index > start, bytes[start..<index].allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x2B || $0 == 0x2E || $0 == 0x65 || $0 == 0x45 }) else { return nil }
                    }
                    return start..<index
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { return nil }
            case UInt8(ascii: ","): if depth == 1 { expectingKey = true }
            default: break
            }
            index += 1
        }
        return nil
    }
}
