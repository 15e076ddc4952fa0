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
        return Data(writer.output)
    }
}

/// Appends JSON to a byte buffer.
struct JSONByteWriter {
    var output: [UInt8] = []
    let style: JSONWritingStyle
    private let separator: [UInt8]

    init(style: JSONWritingStyle, capacity: Int = 1024) {
        self.style = style
        self.separator = Array(style.separator.utf8)
        output.reserveCapacity(capacity)
    }

    mutating func newline(_ level: Int) {
        guard let indent = style.indent else { return }
        output.append(0x0A)
        output.append(contentsOf: repeatElement(0x20, count: indent * level))
    }

    mutating func write(_ value: CassetteJSON, level: Int) {
        switch value {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let text): output.append(contentsOf: text.utf8)
        case .string(let string): writeString(string)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            if elements.isEmpty {
                if style.expandsEmptyContainers, style.indent != nil {
                    output.append(0x0A)
                    newline(level)
                }
                output.append(UInt8(ascii: "]"))
                return
            }
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                newline(level + 1)
                write(element, level: level + 1)
            }
            newline(level)
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            if members.isEmpty {
                if style.expandsEmptyContainers, style.indent != nil {
                    output.append(0x0A)
                    newline(level)
                }
                output.append(UInt8(ascii: "}"))
                return
            }
            for (index, member) in members.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                newline(level + 1)
                writeString(member.key)
                output.append(contentsOf: separator)
                write(member.value, level: level + 1)
            }
            newline(level)
            output.append(UInt8(ascii: "}"))
        }
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
        var runStart = 0
        for index in 0..<bytes.count {
            let byte = bytes[index]
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
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            runStart = index + 1
            if let escape {
                output.append(contentsOf: UnsafeBufferPointer(start: escape.utf8Start, count: escape.utf8CodeUnitCount))
            } else {
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                output.append(contentsOf: "\\u00".utf8)
                output.append(hex[Int(byte >> 4)])
                output.append(hex[Int(byte & 0xF)])
            }
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
    }
}
