import Foundation

/// How ``CassetteJSON`` is spelled out.
public struct JSONWritingStyle: Hashable, Sendable {
    /// Spaces per nesting level, or `nil` for everything on one line.
    public var indent: Int?
    /// What goes between a key and its value: `":"`, `": "` or `" : "`.
    public var separator: String
    /// Whether `/` is written as `\/` (as Foundation's `JSONSerialization` does by default).
    public var escapesSlashes: Bool

    /// Whether an empty object or array spans lines (`{`, a blank line, `}`), as Foundation pretty-prints them.
    public var expandsEmptyContainers: Bool

    /// Creates a style.
    public init(indent: Int? = nil, separator: String = ":", escapesSlashes: Bool = false, expandsEmptyContainers: Bool = false) {
        self.indent = indent
        self.separator = separator
        self.escapesSlashes = escapesSlashes
        self.expandsEmptyContainers = expandsEmptyContainers
    }

    /// One line, no spaces: `{"a":1}`.
    public static let compact = JSONWritingStyle()
    /// Two-space indent, `"key": value`: the style of cassette files.
    public static let pretty = JSONWritingStyle(indent: 2, separator: ": ")
}

extension CassetteJSON {
    /// The value as JSON text in `style`.
    public static func serialize(_ value: CassetteJSON, style: JSONWritingStyle = .compact) -> Data {
        var writer = JSONByteWriter(style: style)
        writer.write(value, level: 0)
        return writer.output.data
    }
}

/// Appends JSON to a byte buffer.
struct JSONByteWriter {
    /// What has been written.
    let output: ByteBuffer
    let style: JSONWritingStyle
    private let separator: [UInt8]
    /// Whether this writer spells JSON as ``JSONWritingStyle/compact`` does, so that plain compact JSON text (see
    /// ``CompactJSONScanner``) can be appended as it is.
    let writesPlainCompact: Bool

    init(style: JSONWritingStyle, capacity: Int = 1024) {
        self.style = style
        separator = Array(style.separator.utf8)
        writesPlainCompact = style == .compact
        output = ByteBuffer(capacity: capacity)
    }

    mutating func newline(_ level: Int) {
        guard let indent = style.indent else { return }
        output.append(0x0A)
        var spaces = indent * level
        while spaces > 0 {
            let run = min(spaces, Self.spaces.utf8CodeUnitCount)
            output.append(UnsafeRawBufferPointer(start: Self.spaces.utf8Start, count: run))
            spaces -= run
        }
    }

    private static let spaces: StaticString = "                                                                "

    mutating func write(_ value: CassetteJSON, level: Int) {
        switch value {
        case .null: output.append("null")
        case .bool(let flag): output.append(flag ? "true" : "false")
        case .number(let text): output.append(utf8: text)
        case .string(let string): writeString(string)
        case .array(let elements):
            var array = beginArray(level: level)
            for element in elements {
                nextElement(in: &array)
                write(element, level: array.childLevel)
            }
            end(array)
        case .object(let members):
            var object = beginObject(level: level)
            for member in members { self.member(member.key, member.value, in: &object) }
            end(object)
        }
    }

    // MARK: - Writing containers piece by piece

    /// An object or array being written one member or element at a time, so that a large structure (a cassette)
    /// is spelled out without first being built as a ``CassetteJSON`` tree.
    struct Container {
        fileprivate let closing: UInt8
        /// The nesting level of the container itself.
        let level: Int
        fileprivate var count = 0
        /// The level its members and elements are written at.
        var childLevel: Int { level + 1 }
    }

    /// Writes `{` and returns the object to add members to; close it with ``end(_:)``.
    mutating func beginObject(level: Int) -> Container {
        output.append(UInt8(ascii: "{"))
        return Container(closing: UInt8(ascii: "}"), level: level)
    }

    /// Writes `[` and returns the array to add elements to; close it with ``end(_:)``.
    mutating func beginArray(level: Int) -> Container {
        output.append(UInt8(ascii: "["))
        return Container(closing: UInt8(ascii: "]"), level: level)
    }

    /// Starts the next member of `object`: its key and separator; the caller then writes the value at
    /// `object.childLevel`.
    mutating func key(_ name: String, in object: inout Container) {
        nextElement(in: &object)
        writeString(name)
        output.append(contentsOf: separator)
    }

    /// A whole member whose value is already a ``CassetteJSON``.
    mutating func member(_ name: String, _ value: CassetteJSON, in object: inout Container) {
        key(name, in: &object)
        write(value, level: object.childLevel)
    }

    /// A member whose value is a string, written without building a ``CassetteJSON``.
    mutating func member(_ name: StaticString, string value: String, in object: inout Container) {
        literalKey(name, in: &object)
        writeString(value)
    }

    /// A member whose value is an integer, written digit by digit.
    mutating func member(_ name: StaticString, integer value: Int64, in object: inout Container) {
        literalKey(name, in: &object)
        writeInteger(value)
    }

    /// A member whose value is a double, spelled as ``CassetteJSON/double(_:)`` spells it.
    mutating func member(_ name: StaticString, double value: Double, in object: inout Container) {
        literalKey(name, in: &object)
        if let whole = CassetteJSON.wholeNumber(value) {
            writeInteger(whole)
        } else {
            output.append(utf8: value.description)
        }
    }

    /// Starts a member named by a literal of the codec's own, which never needs an escape: copied as it is.
    private mutating func literalKey(_ name: StaticString, in object: inout Container) {
        nextElement(in: &object)
        output.append(UInt8(ascii: "\""))
        output.append(name)
        output.append(UInt8(ascii: "\""))
        output.append(contentsOf: separator)
    }

    /// An integer in decimal.
    mutating func writeInteger(_ value: Int64) {
        if value < 0 { output.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for the 20 digits of any Int64, last first
        let count = withUnsafeMutableBytes(of: &digits) { buffer in
            var count = 0
            repeat {
                buffer[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            return count
        }
        withUnsafeMutableBytes(of: &digits) { buffer in
            buffer[0..<count].reverse()
            output.append(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
    }

    /// Starts the next element of `array` (or member of an object): the comma and the line break.
    mutating func nextElement(in container: inout Container) {
        if container.count > 0 { output.append(UInt8(ascii: ",")) }
        container.count += 1
        newline(container.childLevel)
    }

    /// Closes a container.
    mutating func end(_ container: Container) {
        if container.count > 0 {
            newline(container.level)
        } else if style.expandsEmptyContainers, style.indent != nil {
            output.append(0x0A)
            newline(container.level)
        }
        output.append(container.closing)
    }

    mutating func writeString(_ string: String) {
        output.append(UInt8(ascii: "\""))
        // Native strings (nearly all) are read in place; a bridged or non-contiguous one is copied once.
        if string.utf8.withContiguousStorageIfAvailable({ writeEscaped($0) }) == nil {
            var copy = string
            copy.withUTF8 { writeEscaped($0) }
        }
        output.append(UInt8(ascii: "\""))
    }

    private mutating func writeEscaped(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        var runStart = 0
        var index = 0
        while index < bytes.count {
            // Eight bytes at a time while none of them needs an escape: most strings are copied in one piece.
            if index + 8 <= bytes.count,
               !Self.mayNeedEscape(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self), slashes: style.escapesSlashes) {
                index += 8
                continue
            }
            let byte = bytes[index]
            index += 1
            let escape: StaticString?
            switch byte {
            case 0x22: escape = "\\\""
            case 0x5C: escape = "\\\\"
            case 0x0A: escape = "\\n"
            case 0x0D: escape = "\\r"
            case 0x09: escape = "\\t"
            case 0x08: escape = "\\b"
            case 0x0C: escape = "\\f"
            case 0x2F where style.escapesSlashes: escape = "\\/"
            case 0..<0x20: escape = nil
            default: continue
            }
            output.append(UnsafeBufferPointer(rebasing: bytes[runStart..<(index - 1)]))
            runStart = index
            if let escape {
                output.append(escape)
            } else {
                let hex: StaticString = "0123456789abcdef"
                output.append("\\u00")
                output.append(hex.utf8Start[Int(byte >> 4)])
                output.append(hex.utf8Start[Int(byte & 0xF)])
            }
        }
        output.append(UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
    }

    /// Whether any of the eight bytes of `word` is a control character, `"` or `\` (or `/`, when `slashes`).
    /// Exact: a byte is flagged only when it is one of those (the borrow of the subtractions starts only there).
    static func mayNeedEscape(_ word: UInt64, slashes: Bool) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ value: UInt64) -> Bool { (value &- ones) & ~value & highBits != 0 }
        let belowSpace = (word &- ones &* 0x20) & ~word & highBits != 0
        return belowSpace || hasZeroByte(word ^ (ones &* 0x22)) || hasZeroByte(word ^ (ones &* 0x5C))
            || (slashes && hasZeroByte(word ^ (ones &* 0x2F)))
    }
}
