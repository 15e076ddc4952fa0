import TapedeckCore

/// Recognises a JSON body spelled exactly as the compact writer spells it, without building a tree.
///
/// Recording looks at every JSON body twice: redaction asks whether a member name is secret, and the codec asks
/// whether writing the parsed value back reproduces the bytes. For the common body (an object or array with no
/// whitespace, whose strings are printable ASCII without escapes) both answers come from one pass over the bytes
/// that allocates nothing: parsing then writing compactly is the identity, so the codec copies the bytes, and the
/// member names are checked in place. Anything else (whitespace, an escape, non-ASCII text, deep nesting) is
/// ``Outcome/notPlainCompact``, and the caller takes the general path, which handles every spelling.
///
/// Redaction only asks about names, so it can scan in ``Spelling/any``: whitespace between tokens and escapes inside
/// values are read past, and a body in which no name is marked is ``Outcome/unmarked``, with no tree built. (A
/// name with an escape, and non-ASCII text, still take the general path.)
enum CompactJSONScanner {
    /// Which spellings a scan reads through.
    enum Spelling {
        /// Only the compact writer's: no whitespace, strings of printable ASCII with no escapes.
        case compact
        /// Any spelling the parser reads too, as far as member names are concerned: whitespace between tokens and
        /// escapes in values are read past.
        case any
    }

    /// What one scan found.
    enum Outcome: Equatable {
        /// Not plain compact JSON (or not JSON at all): use the general path.
        case notPlainCompact
        /// Plain compact JSON, and no member name satisfied the predicate.
        case plainCompact
        /// JSON in another spelling (scanned with ``Spelling/any``), and no member name satisfied the predicate.
        case unmarked
        /// A member name satisfied the predicate. The scan stopped there, so the rest is unchecked: use the general
        /// path.
        case marked
    }

    /// Deeper bodies take the general path (which stores a body deeper than ``CassetteJSON/maximumBodyDepth`` as
    /// text, so a cassette never nests deeper than its reader allows).
    static let maximumDepth = 128

    /// Scans `bytes`, asking `isMarked` about each object member's name (printable ASCII, unescaped).
    ///
    /// ```swift
    /// CompactJSONScanner.scan(Array(#"{"a":[1,true]}"#.utf8)) { _ in false }   // .plainCompact
    /// CompactJSONScanner.scan(Array(#"{ "a": 1 }"#.utf8)) { _ in false }       // .notPlainCompact
    /// ```
    static func scan(_ bytes: some Collection<UInt8>, spelling: Spelling = .compact,
                     marking isMarked: (UnsafeBufferPointer<UInt8>) -> Bool) -> Outcome {
        // The scanner keeps the predicate only for the length of this call.
        withoutActuallyEscaping(isMarked) { isMarked in
            let outcome = bytes.withContiguousStorageIfAvailable { buffer in
                var scanner = Scanner(bytes: buffer, isMarked: isMarked, anySpelling: spelling == .any)
                return scanner.document()
            }
            if let outcome { return outcome }
            return Array(bytes).withUnsafeBufferPointer { buffer in
                var scanner = Scanner(bytes: buffer, isMarked: isMarked, anySpelling: spelling == .any)
                return scanner.document()
            }
        }
    }

    /// Whether a scan in ``Spelling/any`` found JSON in which no member name is marked (in any spelling).
    static func isUnmarked(_ bytes: some Collection<UInt8>, marking isMarked: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        switch scan(bytes, spelling: .any, marking: isMarked) {
        case .plainCompact, .unmarked: return true
        case .marked, .notPlainCompact: return false
        }
    }

    /// Whether `bytes` is plain compact JSON.
    static func isPlainCompact(_ bytes: some Collection<UInt8>) -> Bool {
        scan(bytes) { _ in false } == .plainCompact
    }

    /// A recursive-descent recogniser: each step returns `false` when the text is not plain compact JSON.
    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        let isMarked: (UnsafeBufferPointer<UInt8>) -> Bool
        /// Whitespace between tokens and escapes in values are read past (``Spelling/any``).
        let anySpelling: Bool
        var position = 0
        var marked = false
        /// Whether anything outside the compact spelling was read past.
        var spelledOtherwise = false
        /// Where a value's escapes are decoded to (and dropped): only their validity counts.
        var escapeScratch: [UInt8] = []

        init(bytes: UnsafeBufferPointer<UInt8>, isMarked: @escaping (UnsafeBufferPointer<UInt8>) -> Bool, anySpelling: Bool) {
            self.bytes = bytes
            self.isMarked = isMarked
            self.anySpelling = anySpelling
        }

        mutating func document() -> Outcome {
            skipWhitespace()
            guard let first = current, first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else { return .notPlainCompact }
            guard value(depth: 0) else { return marked ? .marked : .notPlainCompact }
            skipWhitespace()
            guard position == bytes.count else { return .notPlainCompact }
            return spelledOtherwise ? .unmarked : .plainCompact
        }

        private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

        /// Reads past JSON's whitespace, when the scan reads any spelling.
        private mutating func skipWhitespace() {
            guard anySpelling else { return }
            while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
                position += 1
                spelledOtherwise = true
            }
        }

        /// Takes `byte` (after whitespace, in any spelling; the whitespace after it is read by the next step).
        private mutating func take(_ byte: UInt8) -> Bool {
            skipWhitespace()
            guard current == byte else { return false }
            position += 1
            return true
        }

        private mutating func value(depth: Int) -> Bool {
            skipWhitespace()
            guard depth < CompactJSONScanner.maximumDepth, let byte = current else { return false }
            switch byte {
            case UInt8(ascii: "{"): return object(depth: depth)
            case UInt8(ascii: "["): return array(depth: depth)
            case UInt8(ascii: "\""): return anySpelling ? valueString() : string() != nil
            case UInt8(ascii: "t"): return literal("true")
            case UInt8(ascii: "f"): return literal("false")
            case UInt8(ascii: "n"): return literal("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
            default: return false
            }
        }

        /// Members until `}`; stops (returning `false` with `marked` set) at the first marked name.
        private mutating func object(depth: Int) -> Bool {
            position += 1
            if take(UInt8(ascii: "}")) { return true }
            repeat {
                skipWhitespace()
                guard let name = string(), take(UInt8(ascii: ":")) else { return false }
                if isMarked(name) {
                    marked = true
                    return false
                }
                guard value(depth: depth + 1) else { return false }
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "}"))
        }

        private mutating func array(depth: Int) -> Bool {
            position += 1
            if take(UInt8(ascii: "]")) { return true }
            repeat {
                guard value(depth: depth + 1) else { return false }
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "]"))
        }

        /// A string of printable ASCII with no escapes; returns its contents.
        private mutating func string() -> UnsafeBufferPointer<UInt8>? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = position
            skipPlainRun()
            guard current == UInt8(ascii: "\"") else { return nil }
            position += 1
            return UnsafeBufferPointer(rebasing: bytes[start..<(position - 1)])
        }

        /// A string value in any spelling: printable ASCII with JSON's escapes (non-ASCII text takes the general
        /// path).
        private mutating func valueString() -> Bool {
            guard take(UInt8(ascii: "\"")) else { return false }
            while true {
                skipPlainRun()
                guard let byte = current else { break }
                switch byte {
                case UInt8(ascii: "\""):
                    position += 1
                    return true
                case UInt8(ascii: "\\"):
                    // The parser's own escape reader decides (surrogate pairs included), so the two agree.
                    spelledOtherwise = true
                    position += 1
                    guard position < bytes.count else { return false }
                    escapeScratch.removeAll(keepingCapacity: true)
                    do { try JSONStringEscape.decode(UnsafeRawBufferPointer(bytes), at: &position, into: &escapeScratch) } catch { return false }
                default:
                    guard byte >= 0x20, byte < 0x7F else { return false }
                    position += 1
                }
            }
            return false
        }

        /// Moves past printable ASCII other than `"` and `\\` (a string's plain run), eight bytes at a time while it
        /// can: a word is plain when none of its bytes is below 0x20, at or above 0x7F, a quote or a backslash.
        private mutating func skipPlainRun() {
            guard let base = bytes.baseAddress else { return }
            let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
            func hasZeroByte(_ word: UInt64) -> Bool { (word &- ones) & ~word & highs != 0 }
            while position + 8 <= bytes.count {
                let word = UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)
                let special = word & highs != 0                         // at or above 0x80
                    || (word &- ones &* 0x20) & ~word & highs != 0      // below 0x20
                    || hasZeroByte(word ^ (ones &* 0x22))               // a quote
                    || hasZeroByte(word ^ (ones &* 0x5C))               // a backslash
                    || hasZeroByte(word ^ (ones &* 0x7F))               // DEL
                guard !special else { break }
                position += 8
            }
            while position < bytes.count {
                let byte = base[position]
                guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") else { return }
                position += 1
            }
        }

        private mutating func literal(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard bytes.count - position >= count else { return false }
            for offset in 0..<count where bytes[position + offset] != word.utf8Start[offset] { return false }
            position += count
            return true
        }

        /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, the grammar the parser accepts (numbers keep their
        /// spelling, so any valid one is written back unchanged).
        private mutating func number() -> Bool {
            _ = take(UInt8(ascii: "-"))
            let integerStart = position
            let integerDigits = digits()
            guard integerDigits > 0, integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else { return false }
            if take(UInt8(ascii: ".")), digits() == 0 { return false }
            if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
                if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
                if digits() == 0 { return false }
            }
            return true
        }

        private mutating func digits() -> Int {
            let start = position
            while let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { position += 1 }
            return position - start
        }
    }
}
