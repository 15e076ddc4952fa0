import Foundation

/// The common case of the ``MatchRule/jsonRPC(ignoringParams:)`` rule without reading JSON: a client sending a call
/// again as it was recorded, but for its `id` (every client numbers its own calls). Two bodies whose bytes are the
/// same once the value of one top-level `"id"` member is left out of each are the same call, when the recorded one
/// is a JSON-RPC call (``isCall(_:)``); any other pair goes to the full reading (``JSONRPCReadings``).
enum JSONRPCQuickComparison {
    /// Whether `a` and `b` are one JSON object each, the same bytes but for the value of their top-level `"id"`.
    static func sameButForID(_ a: Data, _ b: Data) -> Bool {
        idRanges(ifSameButForID: a, b) != nil
    }

    /// The bytes of each body's top-level `"id"` value when `a` and `b` are the same but for them (see
    /// ``sameButForID(_:_:)``).
    static func idValues(ifSameButForID a: Data, _ b: Data) -> (a: Data, b: Data)? {
        idRanges(ifSameButForID: a, b).map { (Data(a.dropFirst($0.a.lowerBound).prefix($0.a.count)), Data(b.dropFirst($0.b.lowerBound).prefix($0.b.count))) }
    }

    /// Where each body's top-level `"id"` value lies (offsets from its start) when `a` and `b` are the same but for
    /// them.
    private static func idRanges(ifSameButForID a: Data, _ b: Data) -> (a: Range<Int>, b: Range<Int>)? {
        a.withUnsafeBytes { x in
            b.withUnsafeBytes { y in
                let left = x.bindMemory(to: UInt8.self), right = y.bindMemory(to: UInt8.self)
                guard let i = idValue(in: left), let j = idValue(in: right), i.lowerBound == j.lowerBound,
                      left.count - i.upperBound == right.count - j.upperBound,
                      memcmp(left.baseAddress!, right.baseAddress!, i.lowerBound) == 0,
                      memcmp(left.baseAddress! + i.upperBound, right.baseAddress! + j.upperBound, left.count - i.upperBound) == 0
                else { return nil }
                return (i, j)
            }
        }
    }

    /// Whether `bytes` is surely one JSON-RPC 2.0 call or notification, as ``JSONRPCBody/read(_:)`` would read it:
    /// valid JSON (in ASCII, member names unescaped), one object whose first `"jsonrpc"` member is `"2.0"` and whose
    /// first `"method"` member is a string. `false` means "read it to know", not "it is not".
    static func isCall(_ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var version: Range<Int>?, method: Range<Int>?
            let scanned = forEachTopLevelMember(in: bytes) { name, value in
                if version == nil, Self.equals(bytes, name, "jsonrpc") { version = value }
                if method == nil, Self.equals(bytes, name, "method") { method = value }
                return true
            }
            guard scanned, let version, let method, equals(bytes, version, "\"2.0\""),
                  bytes[method.lowerBound] == UInt8(ascii: "\"") else { return false }
            return CompactJSONScanner.isUnmarked(bytes) { _ in false }
        }
    }

    /// Where the value of the top-level `"id"` member of a JSON object starts and ends, or `nil` when the bytes are
    /// not an object, have no such member or one whose value is not a number or a string. The scan does not check
    /// that the rest is JSON (the full reading does, when the quick answer is no, and an answer of yes needs the same
    /// bytes on both sides).
    static func idValue(in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        var found: Range<Int>?
        _ = forEachTopLevelMember(in: bytes) { name, value in
            guard equals(bytes, name, "id") else { return true }
            let first = bytes[value.lowerBound]
            let isNumber = bytes[value].allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x2B || $0 == 0x2E || $0 == 0x65 || $0 == 0x45 }
            if first == UInt8(ascii: "\"") || isNumber { found = value }
            return false
        }
        return found
    }

    private static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ text: StaticString) -> Bool {
        range.count == text.utf8CodeUnitCount && memcmp(bytes.baseAddress! + range.lowerBound, text.utf8Start, range.count) == 0
    }

    /// Calls `visit` with the range of each top-level member's name (inside its quotes) and value, in order, while it
    /// returns `true`; returns whether the object was read to its end (or to where `visit` stopped) without a fault
    /// in its shape. The scan reads past strings (escapes included) and nesting; it does not check the JSON inside
    /// values.
    private static func forEachTopLevelMember(in bytes: UnsafeBufferPointer<UInt8>,
                                              _ visit: (_ name: Range<Int>, _ value: Range<Int>) -> Bool) -> Bool {
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        var index = 0
        func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }
        func skipWhitespace() { while index < bytes.count, isWhitespace(bytes[index]) { index += 1 } }
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
        /// Moves past a value starting at `index`; returns its range.
        func skipValue() -> Range<Int>? {
            let start = index
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case quote:
                guard skipString() != nil else { return nil }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                var depth = 0
                repeat {
                    switch bytes[index] {
                    case quote:
                        guard skipString() != nil else { return nil }
                        continue
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
                    default: break
                    }
                    index += 1
                } while depth > 0 && index < bytes.count
                guard depth == 0 else { return nil }
            default:
                while index < bytes.count, bytes[index] != UInt8(ascii: ","), bytes[index] != UInt8(ascii: "}"), !isWhitespace(bytes[index]) {
                    index += 1
                }
                guard index > start else { return nil }
            }
            return start..<index
        }
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return false }
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { return true }
        while index < bytes.count {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == quote, let name = skipString() else { return false }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return false }
            index += 1
            skipWhitespace()
            guard let value = skipValue() else { return false }
            guard visit(name, value) else { return true }
            skipWhitespace()
            guard index < bytes.count else { return false }
            if bytes[index] == UInt8(ascii: "}") { return true }
            guard bytes[index] == UInt8(ascii: ",") else { return false }
            index += 1
        }
        return false
    }
}
