import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TapedeckCore

/// The JSON part of ``BodyRedactionStream``: a JSON body bound for a sidecar file, redacted as its bytes pass.
///
/// The bytes go through as they arrive, except the values a whole-document redaction
/// (``Redaction/redactJSON(_:path:)``) replaces: a member a JSON-path filter names, and a member the built-in rules
/// find sensitive. Those become the same replacement string. Everything else keeps its bytes (spacing, number
/// spelling, escapes), and several top-level values in a row (NDJSON) are redacted one after another. At a byte
/// that cannot be JSON the stage stops interpreting, and the rest passes unchanged to the text stage.
///
/// Memory is bounded: the stack of open containers, one member name, and one held scalar of at most
/// ``holdLimit`` bytes. A longer value under a sensitive name becomes ``Redaction/placeholder``, with no stand-in.
struct StreamingJSONRedaction: Sendable {
    /// The largest scalar held whole to decide about it; a longer one under a sensitive name is replaced unseen.
    static let holdLimit = 1 << 20
    /// How many member names, of at most ``rememberedNameLimit`` bytes, are remembered with what they decode to and
    /// what the rules make of them (more start the memory over).
    static let rememberedNames = 1024
    static let rememberedNameLimit = 256

    private let redaction: Redaction
    private let tracksPaths: Bool
    /// The values it replaced under sensitive names: copies of them elsewhere are secrets too.
    private(set) var foundSecrets: [String] = []
    private var stack: [Frame] = []
    private var state = State.between
    /// The member name being read, quotes included (one buffer for every name).
    private var nameBytes: [UInt8] = []
    /// The names met so far by their bytes, decoded and with what the rules make of them: a repeated name is looked
    /// up, not decoded and judged again.
    private var knownNames: [NameKey: Member] = [:]

    /// An open object or array.
    private struct Frame {
        var isObject: Bool
        /// An object's next string is a member name.
        var expectsName: Bool
        /// The name of the member whose value comes next (objects).
        var name: String?
        /// What the built-in rules make of `name` (``Redaction/memberVerdict(_:)``).
        var verdict = Redaction.NameVerdict.keep
        /// The index of the element that comes next (arrays).
        var index = 0
        /// The dotted path of this container, when a JSON-path filter needs paths.
        var path: String?
    }

    /// A scalar a rule may replace, held until it ends.
    private struct Held {
        var bytes: [UInt8] = []
        var count = 0
        var isString: Bool
        var escaped = false
        /// The member name the built-in rules look at, if they may redact it, and what its name alone decides.
        var name: String?
        var verdict = Redaction.NameVerdict.keep
        /// A JSON-path filter's replacement, decided when the value started.
        var replacement: String?
    }

    private enum State {
        case between
        case passingString(escaped: Bool)
        case passingLiteral
        /// Reading a member name into `nameBytes`.
        case readingName(escaped: Bool)
        case holding(Held)
        case skipping(depth: Int, inString: Bool, escaped: Bool)
        case notJSON
    }

    init(redaction: Redaction) {
        self.redaction = redaction
        tracksPaths = redaction.hasJSONPathFilters
    }

    /// Appends the redacted bytes of `chunk` to `output`; bytes held back (a scalar still being decided) come out with
    /// a later chunk.
    mutating func feed(_ chunk: Data, into output: inout [UInt8]) {
        output.reserveCapacity(output.count + chunk.count)
        chunk.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var position = 0
            while position < bytes.count { position = consume(bytes, from: position, into: &output) }
        }
    }

    /// Appends what is still held at the end of the body: a scalar cut off there is decided as it stands.
    mutating func finish(into output: inout [UInt8]) {
        if case .holding(let held) = state { resolve(held, complete: false, into: &output) }
        state = .between
    }

    /// Takes the secrets found since the last call.
    mutating func takeFoundSecrets() -> [String] {
        defer { foundSecrets = [] }
        return foundSecrets
    }

    // MARK: - The byte loop

    /// Consumes bytes from `start` in the current state and returns where the next state starts.
    private mutating func consume(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, into output: inout [UInt8]) -> Int {
        switch state {
        case .notJSON:
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
            return bytes.count
        case .passingString(let escaped):
            let (end, closed, stillEscaped) = Self.scanString(bytes, from: start, escaped: escaped)
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<end]))
            state = closed ? .between : .passingString(escaped: stillEscaped)
            return end
        case .passingLiteral:
            var end = start
            while end < bytes.count, Self.isLiteralByte(bytes[end]) { end += 1 }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<end]))
            if end < bytes.count { state = .between }
            return end
        case .readingName(let escaped):
            let (end, closed, stillEscaped) = Self.scanString(bytes, from: start, escaped: escaped)
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<end]))
            if nameBytes.count < Self.holdLimit {
                nameBytes.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<min(end, start + Self.holdLimit - nameBytes.count)]))
            }
            if closed {
                let member = readMember()
                stack[stack.count - 1].name = member.name
                stack[stack.count - 1].verdict = member.verdict
                stack[stack.count - 1].expectsName = false
                state = .between
            } else {
                state = .readingName(escaped: stillEscaped)
            }
            return end
        case .holding(var held):
            var end = start
            var complete = false
            if held.isString {
                let scan = Self.scanString(bytes, from: start, escaped: held.escaped)
                (end, complete, held.escaped) = (scan.end, scan.closed, scan.escaped)
            } else {
                while end < bytes.count, Self.isLiteralByte(bytes[end]) { end += 1 }
                complete = end < bytes.count
            }
            let room = max(0, Self.holdLimit - held.bytes.count)
            held.bytes.append(contentsOf: bytes[start..<min(end, start + room)])
            held.count += end - start
            if complete {
                resolve(held, complete: true, into: &output)
                state = .between
            } else {
                state = .holding(held)
            }
            return end
        case .skipping(var depth, var inString, var escaped):
            var position = start
            while position < bytes.count, depth > 0 {
                let byte = bytes[position]
                if inString {
                    if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                } else if byte == UInt8(ascii: "\"") {
                    inString = true
                } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                    depth += 1
                } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                    depth -= 1
                }
                position += 1
            }
            state = depth == 0 ? .between : .skipping(depth: depth, inString: inString, escaped: escaped)
            return position
        case .between:
            return structure(bytes, at: start, into: &output)
        }
    }

    /// One byte between tokens: whitespace and punctuation pass, a member name is read, a value starts.
    private mutating func structure(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int, into output: inout [UInt8]) -> Int {
        let byte = bytes[position]
        switch byte {
        case 0x20, 0x0A, 0x0D, 0x09, UInt8(ascii: ":"):
            output.append(byte)
        case UInt8(ascii: ","):
            output.append(byte)
            if !stack.isEmpty {
                if stack[stack.count - 1].isObject {
                    stack[stack.count - 1].expectsName = true
                    stack[stack.count - 1].name = nil
                    stack[stack.count - 1].verdict = .keep
                } else {
                    stack[stack.count - 1].index += 1
                }
            }
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
            guard !stack.isEmpty else { return passRest(bytes, from: position, into: &output) }
            output.append(byte)
            stack.removeLast()
        case UInt8(ascii: "\""):
            if let top = stack.last, top.isObject, top.expectsName {
                output.append(byte)
                nameBytes.removeAll(keepingCapacity: true)
                nameBytes.append(byte)
                state = .readingName(escaped: false)
            } else {
                startValue(byte, into: &output)
            }
        case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            startValue(byte, into: &output)
        default:
            return passRest(bytes, from: position, into: &output)
        }
        return position + 1
    }

    private mutating func passRest(_ bytes: UnsafeBufferPointer<UInt8>, from position: Int, into output: inout [UInt8]) -> Int {
        state = .notJSON
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[position...]))
        return bytes.count
    }

    /// A value starts with `byte`: passed, held for a decision, or replaced whole, as ``Redaction/redactJSON(_:path:)``
    /// would treat it.
    private mutating func startValue(_ byte: UInt8, into output: inout [UInt8]) {
        let isContainer = byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[")
        let path = childPath()
        let parent = stack.last.flatMap { $0.isObject ? $0 : nil }
        let parentName = parent?.name
        let nameVerdict = parent?.verdict ?? .keep
        let pathReplacement = path.flatMap(redaction.jsonPathReplacement)
        if isContainer {
            var replacement = pathReplacement
            if replacement == nil, let parentName, redaction.isSensitiveMember(parentName, value: .object([]), verdict: nameVerdict) {
                replacement = Redaction.placeholder
            }
            if let replacement {
                output.append(contentsOf: CassetteJSON.serialize(.string(replacement)))
                state = .skipping(depth: 1, inString: false, escaped: false)
            } else {
                output.append(byte)
                stack.append(Frame(isObject: byte == UInt8(ascii: "{"), expectsName: byte == UInt8(ascii: "{"), path: path))
            }
            return
        }
        let isString = byte == UInt8(ascii: "\"")
        let name = nameVerdict == .keep ? nil : parentName
        if pathReplacement != nil || name != nil {
            state = .holding(Held(bytes: [byte], count: 1, isString: isString, name: name, verdict: nameVerdict, replacement: pathReplacement))
        } else {
            output.append(byte)
            state = isString ? .passingString(escaped: false) : .passingLiteral
        }
    }

    /// A member name's bytes as a dictionary key, hashed in one piece (an array of bytes hashes each byte on its own).
    private struct NameKey: Hashable {
        var bytes: [UInt8]

        func hash(into hasher: inout Hasher) {
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }

    /// A member name and what the built-in rules make of it.
    private struct Member {
        /// The name decoded, `nil` when it is not a valid JSON string.
        var name: String?
        var verdict: Redaction.NameVerdict
    }

    /// The name in `nameBytes`, decoded and judged, remembered for the names met again.
    private mutating func readMember() -> Member {
        if nameBytes.count <= Self.rememberedNameLimit, let known = knownNames[NameKey(bytes: nameBytes)] { return known }
        let name = Self.decodedString(nameBytes)
        let member = Member(name: name, verdict: name.map(redaction.memberVerdict) ?? .keep)
        guard nameBytes.count <= Self.rememberedNameLimit else { return member }
        if knownNames.count >= Self.rememberedNames { knownNames.removeAll(keepingCapacity: true) }
        knownNames[NameKey(bytes: nameBytes)] = member
        return member
    }

    /// The path of the value that starts next, when paths are tracked (`""` at the top level, as in a whole document).
    private func childPath() -> String? {
        guard tracksPaths else { return nil }
        guard let parent = stack.last else { return "" }
        let step = parent.isObject ? (parent.name ?? "") : "\(parent.index)"
        return Redaction.child(step, of: parent.path ?? "")
    }

    /// Appends what a held scalar becomes: a JSON-path filter's replacement, the built-in replacement of a sensitive
    /// member's value (noting it as a secret), or the scalar as it came.
    private mutating func resolve(_ held: Held, complete: Bool, into output: inout [UInt8]) {
        if let replacement = held.replacement { return Self.appendString(replacement, to: &output) }
        guard let name = held.name else { return output.append(contentsOf: held.bytes) }
        guard complete, held.count <= Self.holdLimit, let value = Self.scalar(held) else {
            // Cut off, too long to decide on, or not JSON: a value under a sensitive name is not kept.
            return Self.appendString(Redaction.placeholder, to: &output)
        }
        guard redaction.isSensitiveMember(name, value: value, verdict: held.verdict) else { return output.append(contentsOf: held.bytes) }
        switch value {
        case .string(let text), .number(let text): Redaction.addSecret(text, to: &foundSecrets)
        default: break
        }
        Self.appendString(redaction.replacement(forMember: value), to: &output)
    }

    /// Appends `text` as a JSON string, spelled as ``CassetteJSON/serialize(_:style:)`` spells it. A replacement is
    /// usually a stand-in or the placeholder, printable ASCII that needs no escape: copied between quotes.
    private static func appendString(_ text: String, to output: inout [UInt8]) {
        var text = text
        let copied = text.withUTF8 { bytes in
            guard bytes.allSatisfy(isWrittenAsItIs) else { return false }
            output.append(UInt8(ascii: "\""))
            output.append(contentsOf: bytes)
            output.append(UInt8(ascii: "\""))
            return true
        }
        guard !copied else { return }
        CassetteJSON.serialize(.string(text)).withUnsafeBytes { output.append(contentsOf: $0) }
    }

    /// Whether a JSON writer writes `byte` inside a string as it is: printable ASCII but a quote, a backslash, and a
    /// slash (which a style may escape).
    private static func isWrittenAsItIs(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") && byte != UInt8(ascii: "/")
    }

    private static func scalar(_ held: Held) -> CassetteJSON? {
        if held.isString { return decodedString(held.bytes).map(CassetteJSON.string) }
        switch String(decoding: held.bytes, as: UTF8.self) {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "null": return .null
        case let text: return (try? CassetteJSON.parse(text)).map { _ -> CassetteJSON in .number(text) }
        }
    }

    /// A JSON string's value from its bytes, quotes included.
    private static func decodedString(_ bytes: [UInt8]) -> String? {
        guard bytes.count >= 2 else { return nil }
        if !bytes.contains(UInt8(ascii: "\\")) { return String(validating: bytes[1..<(bytes.count - 1)], as: UTF8.self) }
        guard case .string(let text)? = try? CassetteJSON.parse(Data(bytes)) else { return nil }
        return text
    }

    /// Scans a string's bytes from `start` (after its opening quote): where the scan stopped (after the closing quote
    /// when it closed), whether it closed, and whether it stopped right after a backslash. It jumps from quote to
    /// quote (`memchr`), and a quote counts as closing when an even number of backslashes comes right before it.
    private static func scanString(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, escaped: Bool) -> (end: Int, closed: Bool, escaped: Bool) {
        guard let base = bytes.baseAddress, start < bytes.count else { return (start, false, escaped) }
        // The byte after a backslash that ended the last chunk is taken as it is.
        var position = escaped ? start + 1 : start
        while position < bytes.count {
            guard let found = memchr(base + position, Int32(UInt8(ascii: "\"")), bytes.count - position) else { break }
            let quote = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
            if backslashes(bytes, before: quote, after: position) % 2 == 0 { return (quote + 1, true, false) }
            position = quote + 1
        }
        let end = bytes.count
        return (end, false, position < end && backslashes(bytes, before: end, after: position) % 2 == 1)
    }

    /// How many backslashes come right before `index`, counting back no further than `start`.
    private static func backslashes(_ bytes: UnsafeBufferPointer<UInt8>, before index: Int, after start: Int) -> Int {
        var count = 0
        while index - count > start, bytes[index - count - 1] == UInt8(ascii: "\\") { count += 1 }
        return count
    }

    /// Bytes a number or `true`/`false`/`null` is made of.
    private static func isLiteralByte(_ byte: UInt8) -> Bool {
        byte.isASCIIAlphanumeric || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
    }
}
