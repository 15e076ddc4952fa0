import Foundation
import TapedeckCore

/// Chooses how a body is spelled in a cassette (structured JSON, UTF-8 text or base64) and reads it back.
/// The choice depends only on the bytes, and structured JSON is used only when writing it back reproduces the
/// original bytes exactly, so the spelling never changes what is replayed.
enum BodyFormat {
    /// The JSON spellings recognised, by name as stored in `"format"`.
    static let styles: [(name: String, style: JSONWritingStyle)] = [
        ("compact", .compact),
        ("pretty", .pretty),
        ("spaced", JSONWritingStyle(indent: 2, separator: " : ", expandsEmptyContainers: true)),
        ("compact-escaped", JSONWritingStyle(escapesSlashes: true)),
        ("spaced-escaped", JSONWritingStyle(indent: 2, separator: " : ", escapesSlashes: true, expandsEmptyContainers: true)),
        ("pretty-escaped", JSONWritingStyle(indent: 2, separator: ": ", escapesSlashes: true)),
    ]

    static func style(named name: String) -> JSONWritingStyle? {
        styles.first { $0.name == name }?.style
    }

    /// The spelling of `data` in which it round-trips as structured JSON, if any.
    static func jsonStyle(of data: Data) -> (value: CassetteJSON, name: String, style: JSONWritingStyle)? {
        guard let value = CassetteJSON.parseBody(data) else { return nil }
        return data.withUnsafeBytes { bytes in
            let hasSlash = bytes.contains(UInt8(ascii: "/"))
            let multiline = bytes.contains(0x0A)
            for candidate in styles {
                if candidate.style.escapesSlashes && !hasSlash { continue }
                if (candidate.style.indent != nil) != multiline { continue }
                var writer = JSONWriter(style: candidate.style, capacity: bytes.count)
                writer.write(value, level: 0)
                if UnsafeRawBufferPointer(writer.output.bytes).elementsEqual(bytes) {
                    return (value, candidate.name, candidate.style)
                }
            }
            return nil
        }
    }

    /// Writes `body` as member `key` of `object`, or nothing for an empty body.
    static func write(_ body: CassetteBody, as key: String, in object: inout JSONWriter.Container, of writer: inout JSONWriter) {
        var members: [CassetteJSON.Member] = []
        switch body.storage {
        case .sidecar(let path, let byteCount):
            members = [.init("encoding", "file"), .init("file", .string(path)), .init("byteCount", .integer(byteCount))]
        case .inline(let data):
            if data.isEmpty && body.contentEncoding == nil { return }
            if writer.writesPlainCompact, CompactJSONScanner.isPlainCompact(data) {
                // Parsing this body and writing it back compactly is the identity: copy it (a journal line).
                writer.key(key, in: &object)
                var spelled = writer.beginObject(level: object.childLevel)
                writer.member("encoding", "json", in: &spelled)
                writer.key("json", in: &spelled)
                writer.output.append(contentsOf: data)
                if let coding = body.contentEncoding { writer.member("contentEncoding", .string(coding), in: &spelled) }
                writer.end(spelled)
                return
            }
            if let json = jsonStyle(of: data) {
                members = [.init("encoding", "json"), .init("json", json.value)]
                if json.name != "compact" { members.append(.init("format", .string(json.name))) }
            } else if let text = String(validating: data, as: UTF8.self) {
                members = [.init("encoding", "utf8"), .init("text", .string(text))]
            } else {
                members = [.init("encoding", "base64"), .init("base64", .string(data.base64EncodedString()))]
            }
        }
        if let coding = body.contentEncoding { members.append(.init("contentEncoding", .string(coding))) }
        writer.key(key, in: &object)
        var spelled = writer.beginObject(level: object.childLevel)
        for member in members { writer.member(member.key, member.value, in: &spelled) }
        writer.end(spelled)
    }

    /// Reads a body written by ``write(_:as:in:of:)``; `nil` or absent means empty.
    static func decode(_ json: CassetteJSON?, at path: String, file: String) throws(CassetteError) -> CassetteBody {
        guard let json, json != .null else { return .empty }
        let fields = FieldReader(json, path: path, file: file)
        let coding = try fields.optionalString("contentEncoding")
        switch try fields.string("encoding") {
        case "json":
            guard let value = json["json"] else { throw fields.missing("json") }
            let formatName = try fields.optionalString("format") ?? "compact"
            guard let style = style(named: formatName) else {
                throw fields.invalid("format", "unknown JSON format \(Shown.quoted(formatName)); expected one of "
                    + styles.map(\.name).joined(separator: ", "))
            }
            return CassetteBody(CassetteJSON.serialize(value, style: style), contentEncoding: coding)
        case "utf8":
            return CassetteBody(Data(try fields.string("text").utf8), contentEncoding: coding)
        case "base64":
            guard let data = Data(base64Encoded: try fields.string("base64")) else {
                throw fields.invalid("base64", "not valid base64")
            }
            return CassetteBody(data, contentEncoding: coding)
        case "file":
            let file = try fields.string("file")
            guard !file.hasPrefix("/"), !file.split(separator: "/").contains("..") else {
                throw fields.invalid("file", "a sidecar path must be relative to the cassette and stay beside it")
            }
            return CassetteBody(sidecar: file, byteCount: Int64(try fields.int("byteCount")), contentEncoding: coding)
        case let other:
            throw fields.invalid("encoding", "unknown body encoding \(Shown.quoted(other)); expected json, utf8, base64 or file")
        }
    }
}

/// Reads the members of one JSON object of a cassette, turning problems into ``CassetteError/invalidFormat``
/// errors that name the place.
struct FieldReader {
    let json: CassetteJSON
    let path: String
    let file: String

    init(_ json: CassetteJSON, path: String, file: String) {
        self.json = json
        self.path = path
        self.file = file
    }

    func at(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
    func missing(_ key: String) -> CassetteError { .invalidFormat(file: file, path: at(key), reason: "missing") }
    func invalid(_ key: String, _ reason: String) -> CassetteError { .invalidFormat(file: file, path: at(key), reason: reason) }

    func value(_ key: String) throws(CassetteError) -> CassetteJSON {
        guard case .object = json else { throw CassetteError.invalidFormat(file: file, path: path, reason: "expected an object") }
        guard let value = json[key] else { throw missing(key) }
        return value
    }

    func string(_ key: String) throws(CassetteError) -> String {
        guard let string = try value(key).stringValue else { throw invalid(key, "expected a string") }
        return string
    }

    func optionalString(_ key: String) throws(CassetteError) -> String? {
        guard let value = json[key], value != .null else { return nil }
        guard let string = value.stringValue else { throw invalid(key, "expected a string") }
        return string
    }

    func optionalBool(_ key: String) throws(CassetteError) -> Bool? {
        guard let value = json[key], value != .null else { return nil }
        guard case .bool(let flag) = value else { throw invalid(key, "expected true or false") }
        return flag
    }

    func int(_ key: String) throws(CassetteError) -> Int {
        guard let number = try value(key).intValue else { throw invalid(key, "expected an integer") }
        return number
    }

    func optionalInt(_ key: String) throws(CassetteError) -> Int? {
        guard let value = json[key], value != .null else { return nil }
        guard let number = value.intValue else { throw invalid(key, "expected an integer") }
        return number
    }

    func double(_ key: String, default fallback: Double = 0) throws(CassetteError) -> Double {
        guard let value = json[key], value != .null else { return fallback }
        guard let number = value.doubleValue else { throw invalid(key, "expected a number") }
        return number
    }

    func array(_ key: String) throws(CassetteError) -> [CassetteJSON] {
        guard let elements = try value(key).arrayValue else { throw invalid(key, "expected an array") }
        return elements
    }

    func headers(_ key: String) throws(CassetteError) -> HTTPHeaders {
        guard let value = json[key] else { return [:] }
        guard let pairs = value.arrayValue else { throw invalid(key, "expected an array of [name, value] pairs") }
        var fields: [HTTPHeaders.Field] = []
        fields.reserveCapacity(pairs.count)
        for (index, pair) in pairs.enumerated() {
            guard let items = pair.arrayValue, items.count == 2, let name = items[0].stringValue, let text = items[1].stringValue else {
                throw CassetteError.invalidFormat(file: file, path: "\(at(key))[\(index)]", reason: "expected [name, value] strings")
            }
            fields.append(HTTPHeaders.Field(name: name, value: text))
        }
        return HTTPHeaders(fields)
    }
}
