import Foundation
import TapedeckCore

/// Where in a JSON document its text breaks off or goes wrong, as a JSON path: the value that was being read at a
/// byte offset (`$.interactions[3].response.body` for a file cut short inside that body). It follows the text's
/// containers, keys and indexes up to the offset and does not judge the syntax, which the parser already has.
///
/// ```swift
/// JSONBreakPath.path(in: Data(#"{"a": [1, {"b": tru"#.utf8), upTo: 18)   // "$.a[1].b"
/// ```
enum JSONBreakPath {
    private enum Container {
        case object(key: String?, expectingKey: Bool)
        case array(index: Int)
    }

    static func path(in data: Data, upTo offset: Int) -> String {
        let bytes = [UInt8](data.prefix(max(0, offset)))
        var stack: [Container] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                var end = index + 1
                var text: [UInt8] = []
                while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
                    if bytes[end] == UInt8(ascii: "\\"), end + 1 < bytes.count { text.append(bytes[end + 1]); end += 2; continue }
                    text.append(bytes[end])
                    end += 1
                }
                if case .object(_, true)? = stack.last { stack[stack.count - 1] = .object(key: String(decoding: text, as: UTF8.self), expectingKey: false) }
                index = end + 1
                continue
            case UInt8(ascii: "{"): stack.append(.object(key: nil, expectingKey: true))
            case UInt8(ascii: "["): stack.append(.array(index: 0))
            case UInt8(ascii: "}"), UInt8(ascii: "]"): if !stack.isEmpty { stack.removeLast() }
            case UInt8(ascii: ","):
                switch stack.last {
                case .object?: stack[stack.count - 1] = .object(key: nil, expectingKey: true)
                case .array(let position)?: stack[stack.count - 1] = .array(index: position + 1)
                case nil: break
                }
            default: break
            }
            index += 1
        }
        var path = "$"
        for container in stack {
            switch container {
            case .object(let key?, _):
                path = JSONPath.member(key, of: path)
            case .object(nil, _): break
            case .array(let position): path += "[\(position)]"
            }
        }
        return path
    }
}
