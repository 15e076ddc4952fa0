import Foundation
import TapedeckCore

/// WireMock reads its mapping files with Jackson set to allow comments (`// …` to the end of the line and
/// `/* … */`) and single-quoted strings (`'…'`, where `\'` is a quote and `"` needs no escape). This turns such text
/// into strict JSON: comments become spaces (line breaks kept, so a parser's byte offsets and lines still point into
/// the original) and single-quoted strings double-quoted ones. Strict JSON comes back unchanged. `#` comments, which
/// Jackson allows only with another switch WireMock leaves off, stay errors.
///
/// ```swift
/// let strict = try WireMockJSONText.strict(Data("{ // the stub\n 'request': {} }".utf8))
/// // { ...spaces... \n "request": {} }
/// ```
enum WireMockJSONText {
    /// `data` as strict JSON; `data` itself when it has no comment and no single-quoted string. Throws where the
    /// text is not even lenient JSON: an unterminated comment or string, with its line and column.
    static func strict(_ data: Data) throws(JSONSyntaxError) -> Data {
        let bytes = [UInt8](data)
        guard bytes.contains(UInt8(ascii: "/")) || bytes.contains(UInt8(ascii: "'")) else { return data }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                let end = try endOfString(bytes, from: index, quote: byte)
                output.append(contentsOf: bytes[index...end])
                index = end + 1
            case UInt8(ascii: "'"):
                let end = try endOfString(bytes, from: index, quote: byte)
                output.append(contentsOf: doubleQuoted(bytes[(index + 1)..<end]))
                index = end + 1
            case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "/"):
                while index < bytes.count, bytes[index] != 0x0A, bytes[index] != 0x0D {
                    output.append(0x20)
                    index += 1
                }
            case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "*"):
                let start = index
                index += 2
                while index + 1 < bytes.count, !(bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/")) { index += 1 }
                guard index + 1 < bytes.count else { throw failure(bytes, at: start, "a /* comment is never closed") }
                for commented in bytes[start...(index + 1)] { output.append(commented == 0x0A || commented == 0x0D ? commented : 0x20) }
                index += 2
            default:
                output.append(byte)
                index += 1
            }
        }
        return Data(output)
    }

    /// The index of the quote closing the string that opens at `start`.
    private static func endOfString(_ bytes: [UInt8], from start: Int, quote: UInt8) throws(JSONSyntaxError) -> Int {
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case quote: return index
            default: index += 1
            }
        }
        throw failure(bytes, at: start, "a string is never closed")
    }

    /// The content of a single-quoted string, as a double-quoted one: `\'` unescaped, `"` escaped.
    private static func doubleQuoted(_ content: ArraySlice<UInt8>) -> [UInt8] {
        var output: [UInt8] = [UInt8(ascii: "\"")]
        var index = content.startIndex
        while index < content.endIndex {
            let byte = content[index]
            if byte == UInt8(ascii: "\\"), index + 1 < content.endIndex {
                if content[index + 1] != UInt8(ascii: "'") { output.append(byte) }
                output.append(content[index + 1])
                index += 2
                continue
            }
            if byte == UInt8(ascii: "\"") { output.append(UInt8(ascii: "\\")) }
            output.append(byte)
            index += 1
        }
        output.append(UInt8(ascii: "\""))
        return output
    }

    private static func failure(_ bytes: [UInt8], at offset: Int, _ reason: String) -> JSONSyntaxError {
        bytes.withUnsafeBytes { JSONSyntaxError(reason, at: offset, in: $0) }
    }
}
