import Foundation

/// How a ``JSONWriter`` spells JSON out.
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

/// A JSON tree a ``JSONWriter`` can write: each tree (``JSONValue``, the cassette's order- and spelling-keeping
/// tree) says how its values map to the writer's pieces, and the bytes are spelled by the one writer.
public protocol JSONWritable {
    /// Writes this value; `level` is the nesting level it sits at (0 for a document).
    func write(to writer: inout JSONWriter, level: Int)
}

/// The one JSON writer: appends JSON text to a byte buffer in a ``JSONWritingStyle``, a whole ``JSONWritable`` tree at
/// once or piece by piece (an object or array begun, its members written, then ended), so that a large structure
/// such as a cassette is spelled out without first being built as a tree.
///
/// ```swift
/// var writer = JSONWriter(style: .pretty)
/// var object = writer.beginObject(level: 0)
/// writer.member("name", string: "tapedeck", in: &object)
/// writer.end(object)
/// writer.output.data  // {\n  "name": "tapedeck"\n}
/// ```
///
/// Its members are inlinable (as ``JSONReader``'s are) so that a tree in another module gets a writer specialised for
/// it: a call per byte run across modules would cost more than the bytes.
public struct JSONWriter {
    /// What has been written.
    public let output: Output
    /// How it is spelled.
    public let style: JSONWritingStyle
    @usableFromInline let separator: [UInt8]
    /// Whether this writer spells JSON as ``JSONWritingStyle/compact`` does, so that JSON text already in that
    /// spelling can be appended as it is.
    public let writesPlainCompact: Bool

    /// A writer with an empty buffer of `capacity` bytes.
    @inlinable
    public init(style: JSONWritingStyle, capacity: Int = 1024) {
        self.style = style
        separator = Array(style.separator.utf8)
        writesPlainCompact = style == .compact
        output = Output(capacity: capacity)
    }

    /// `value` as JSON text in `style`.
    ///
    /// ```swift
    /// JSONWriter.serialize(["b": 1, "a": [true, nil]] as JSONValue)  // {"a":[true,null],"b":1}
    /// ```
    @inlinable
    public static func serialize<Value: JSONWritable>(_ value: Value, style: JSONWritingStyle = .compact) -> Data {
        var writer = JSONWriter(style: style)
        value.write(to: &writer, level: 0)
        return writer.output.data
    }

    /// Writes a whole value at nesting `level`.
    @inlinable
    public mutating func write<Value: JSONWritable>(_ value: Value, level: Int) {
        value.write(to: &self, level: level)
    }

    /// An array of `elements`, in order.
    @inlinable
    public mutating func writeArray<Elements: Sequence>(_ elements: Elements, level: Int) where Elements.Element: JSONWritable {
        var array = beginArray(level: level)
        for element in elements {
            nextElement(in: &array)
            element.write(to: &self, level: array.childLevel)
        }
        end(array)
    }

    /// An object of `members`, in order.
    @inlinable
    public mutating func writeObject<Value: JSONWritable>(_ members: some Sequence<(key: String, value: Value)>, level: Int) {
        var object = beginObject(level: level)
        for member in members { self.member(member.key, member.value, in: &object) }
        end(object)
    }

    /// A line break and the indent of `level`; nothing in a one-line style.
    @inlinable
    public mutating func newline(_ level: Int) {
        guard let indent = style.indent else { return }
        output.append(0x0A)
        let spaces: StaticString = "                                                                "
        var count = indent * level
        while count > 0 {
            let run = min(count, spaces.utf8CodeUnitCount)
            output.append(UnsafeRawBufferPointer(start: spaces.utf8Start, count: run))
            count -= run
        }
    }

    // MARK: - Writing containers piece by piece

    /// An object or array being written one member or element at a time.
    public struct Container {
        @usableFromInline let closing: UInt8
        /// The nesting level of the container itself.
        public let level: Int
        @usableFromInline var count = 0
        /// The level its members and elements are written at.
        @inlinable public var childLevel: Int { level + 1 }

        @inlinable
        init(closing: UInt8, level: Int) {
            self.closing = closing
            self.level = level
        }
    }

    /// Writes `{` and returns the object to add members to; close it with ``end(_:)``.
    @inlinable
    public mutating func beginObject(level: Int) -> Container {
        output.append(UInt8(ascii: "{"))
        return Container(closing: UInt8(ascii: "}"), level: level)
    }

    /// Writes `[` and returns the array to add elements to; close it with ``end(_:)``.
    @inlinable
    public mutating func beginArray(level: Int) -> Container {
        output.append(UInt8(ascii: "["))
        return Container(closing: UInt8(ascii: "]"), level: level)
    }

    /// Starts the next member of `object`: its key and separator; the caller then writes the value at
    /// `object.childLevel`.
    @inlinable
    public mutating func key(_ name: String, in object: inout Container) {
        nextElement(in: &object)
        writeString(name)
        output.append(contentsOf: separator)
    }

    /// A whole member whose value is a tree.
    @inlinable
    public mutating func member<Value: JSONWritable>(_ name: String, _ value: Value, in object: inout Container) {
        key(name, in: &object)
        value.write(to: &self, level: object.childLevel)
    }

    /// A member whose value is a string, written without building a tree.
    @inlinable
    public mutating func member(_ name: StaticString, string value: String, in object: inout Container) {
        literalKey(name, in: &object)
        writeString(value)
    }

    /// A member whose value is an integer, written digit by digit.
    @inlinable
    public mutating func member(_ name: StaticString, integer value: Int64, in object: inout Container) {
        literalKey(name, in: &object)
        writeInteger(value)
    }

    /// A member whose value is a double: a whole number below 10^15 as an integer, any other finite value in Swift's
    /// shortest round-tripping spelling, and a value that is not finite (which JSON cannot spell) as `0`.
    @inlinable
    public mutating func member(_ name: StaticString, double value: Double, in object: inout Container) {
        literalKey(name, in: &object)
        if let whole = Self.wholeNumber(value) {
            writeInteger(whole)
        } else {
            output.append(utf8: value.description)
        }
    }

    /// The integer a double is spelled as: a whole number below 10^15, or 0 for a value that is not finite (JSON has
    /// no spelling for it). `nil` when the double keeps its shortest round-tripping spelling.
    @inlinable
    public static func wholeNumber(_ value: Double) -> Int64? {
        guard value.isFinite else { return 0 }
        return value == value.rounded() && abs(value) < 1e15 ? Int64(value) : nil
    }

    /// Starts a member named by a literal that never needs an escape: copied as it is.
    @inlinable
    mutating func literalKey(_ name: StaticString, in object: inout Container) {
        nextElement(in: &object)
        output.append(UInt8(ascii: "\""))
        output.append(name)
        output.append(UInt8(ascii: "\""))
        output.append(contentsOf: separator)
    }

    /// An integer in decimal.
    @inlinable
    public mutating func writeInteger(_ value: Int64) {
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
    @inlinable
    public mutating func nextElement(in container: inout Container) {
        if container.count > 0 { output.append(UInt8(ascii: ",")) }
        container.count += 1
        newline(container.childLevel)
    }

    /// Closes a container.
    @inlinable
    public mutating func end(_ container: Container) {
        if container.count > 0 {
            newline(container.level)
        } else if style.expandsEmptyContainers, style.indent != nil {
            output.append(0x0A)
            newline(container.level)
        }
        output.append(container.closing)
    }

    /// A string, quoted and escaped: `"`, `\` and control characters (and `/` when the style escapes slashes), with
    /// the short escapes where JSON has them and `\u00xx` otherwise; everything else as its UTF-8 bytes.
    @inlinable
    public mutating func writeString(_ string: String) {
        output.append(UInt8(ascii: "\""))
        // Native strings (nearly all) are read in place; a bridged or non-contiguous one is copied once.
        if string.utf8.withContiguousStorageIfAvailable({ writeEscaped($0) }) == nil {
            var copy = string
            copy.withUTF8 { writeEscaped($0) }
        }
        output.append(UInt8(ascii: "\""))
    }

    @inlinable
    mutating func writeEscaped(_ bytes: UnsafeBufferPointer<UInt8>) {
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
    @inlinable
    static func mayNeedEscape(_ word: UInt64, slashes: Bool) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ value: UInt64) -> Bool { (value &- ones) & ~value & highBits != 0 }
        let belowSpace = (word &- ones &* 0x20) & ~word & highBits != 0
        return belowSpace || hasZeroByte(word ^ (ones &* 0x22)) || hasZeroByte(word ^ (ones &* 0x5C))
            || (slashes && hasZeroByte(word ^ (ones &* 0x2F)))
    }
}
