import Foundation

/// Where and why a JSON document could not be read: what ``JSONReader`` throws, for both JSON trees.
///
/// ```swift
/// do { _ = try CassetteJSON.parse("[1,]") } catch { print(error) }   // line 1, column 4: unexpected character ']': …
/// ```
public struct JSONSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// 1-based line of the offending byte.
    public var line: Int
    /// 1-based column (in characters) of the offending byte.
    public var column: Int
    /// Byte offset of the offending byte.
    public var offset: Int
    /// What was wrong, e.g. `expected ',' or '}' after an object member`.
    public var reason: String

    /// How messages and reports print it.
    public var description: String { "line \(line), column \(column): \(reason)" }

    /// The error at byte `offset` of `bytes` (clamped to its end), with the line and column counted there.
    @usableFromInline
    package init(_ reason: String, at offset: Int, in bytes: UnsafeRawBufferPointer) {
        let offset = min(max(offset, 0), bytes.count)
        var line = 1
        var lineStart = 0
        for index in 0..<offset where bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        self.line = line
        column = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[lineStart..<offset]), as: UTF8.self).count + 1
        self.offset = offset
        self.reason = reason
    }

    /// A member name as an error message shows it (cut short when long).
    @usableFromInline
    package static func quoted(_ name: String) -> String { Shown.quoted(name) }

    /// A byte as an error message shows it: `'x'` when printable ASCII, `0x1F` otherwise.
    @usableFromInline
    package static func describe(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? "'\(Character(UnicodeScalar(byte)))'" : String(format: "0x%02X", byte)
    }
}
