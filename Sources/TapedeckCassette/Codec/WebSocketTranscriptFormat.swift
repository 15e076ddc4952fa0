import Foundation

/// Reads and writes an interaction's `"webSocket"` member (format version 2): the frames in order, one compact
/// object per line, e.g. `{"from":"server","at":0.004,"text":"welcome"}`. A frame has exactly one payload member:
/// `text` (a string), `binary`, `ping` or `pong` (base64), or `close` (`{"code": 1000, "reason": "bye"}`, the
/// reason left out when empty; code 1005 is a close that carried none).
enum WebSocketTranscriptFormat {
    /// The payload members a frame may have, one of which it must.
    static let kinds = ["text", "binary", "ping", "pong", "close"]

    /// Writes `transcript` as member `webSocket` of `object`.
    static func write(_ transcript: WebSocketTranscript, in object: inout JSONWriter.Container, of writer: inout JSONWriter) {
        writer.key("webSocket", in: &object)
        var member = writer.beginObject(level: object.childLevel)
        writer.key("frames", in: &member)
        var frames = writer.beginArray(level: member.childLevel)
        for frame in transcript.frames {
            writer.nextElement(in: &frames)
            var line = JSONWriter(style: .compact, capacity: 64)
            line.write(json(frame), level: 0)
            writer.output.append(line.output.bytes)
        }
        writer.end(frames)
        writer.end(member)
    }

    /// One frame as a JSON object, in the order written.
    static func json(_ frame: WebSocketTranscript.Frame) -> CassetteJSON {
        var members: [CassetteJSON.Member] = [.init("from", .string(frame.direction.rawValue)), .init("at", .double(frame.offset))]
        switch frame.kind {
        case .text(let text): members.append(.init("text", .string(text)))
        case .binary(let data): members.append(.init("binary", .string(data.base64EncodedString())))
        case .ping(let data): members.append(.init("ping", .string(data.base64EncodedString())))
        case .pong(let data): members.append(.init("pong", .string(data.base64EncodedString())))
        case .close(let close):
            var fields: [CassetteJSON.Member] = [.init("code", .integer(close.code.rawValue))]
            if !close.reason.isEmpty { fields.append(.init("reason", .string(close.reason))) }
            members.append(.init("close", .object(fields)))
        }
        return .object(members)
    }

    /// Reads the `webSocket` member at `path`.
    static func decode(_ json: CassetteJSON, path: String, file: String) throws(CassetteError) -> WebSocketTranscript {
        let fields = FieldReader(json, path: path, file: file)
        let elements = try fields.array("frames")
        var frames: [WebSocketTranscript.Frame] = []
        frames.reserveCapacity(elements.count)
        var previous = 0.0
        for (index, element) in elements.enumerated() {
            let frame = try decodeFrame(element, path: fields.at("frames[\(index)]"), file: file)
            guard frame.offset >= previous else {
                throw CassetteError.invalidFormat(
                    file: file, path: fields.at("frames[\(index)].at"),
                    reason: "\(frame.offset) s is before the previous frame's \(previous) s: frames are in the order sent")
            }
            previous = frame.offset
            frames.append(frame)
        }
        return WebSocketTranscript(frames: frames)
    }

    static func decodeFrame(_ json: CassetteJSON, path: String, file: String) throws(CassetteError) -> WebSocketTranscript.Frame {
        let fields = FieldReader(json, path: path, file: file)
        let from = try fields.string("from")
        guard let direction = WebSocketTranscript.Direction(rawValue: from) else {
            throw fields.invalid("from", "expected \"client\" or \"server\", found \(Shown.quoted(from))")
        }
        guard let offset = try fields.value("at").doubleValue, offset.isFinite, offset >= 0 else {
            throw fields.invalid("at", "expected the seconds since the connection began, a number ≥ 0")
        }
        let present = kinds.filter { json[$0] != nil }
        guard present.count == 1, let name = present.first else {
            throw CassetteError.invalidFormat(
                file: file, path: path,
                reason: present.isEmpty ? "a frame needs one of \(kinds.joined(separator: ", "))"
                    : "a frame has one payload, found \(present.joined(separator: " and "))")
        }
        return WebSocketTranscript.Frame(direction: direction, kind: try decodeKind(name, fields: fields), offset: offset)
    }

    private static func decodeKind(_ name: String, fields: FieldReader) throws(CassetteError) -> WebSocketTranscript.Kind {
        func bytes() throws(CassetteError) -> Data {
            guard let data = Data(base64Encoded: try fields.string(name)) else { throw fields.invalid(name, "expected base64") }
            return data
        }
        switch name {
        case "text": return .text(try fields.string("text"))
        case "binary": return .binary(try bytes())
        case "ping": return .ping(try bytes())
        case "pong": return .pong(try bytes())
        default:
            let close = FieldReader(try fields.value("close"), path: fields.at("close"), file: fields.file)
            let code = try close.int("code")
            guard let raw = UInt16(exactly: code), (1000...4999).contains(raw) else {
                throw close.invalid("code", "expected a close code from 1000 to 4999, found \(code)")
            }
            return .close(WebSocketClose(code: WebSocketCloseCode(rawValue: raw), reason: try close.optionalString("reason") ?? ""))
        }
    }
}
