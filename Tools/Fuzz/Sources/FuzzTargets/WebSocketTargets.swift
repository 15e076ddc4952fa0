import Foundation
import TapedeckWebSocket

/// The WebSocket frame decoder and the handshake's extension header parser.
enum WebSocketTargets {
    /// The input's first byte chooses the role (bit 0), small size limits (bit 1) and the piece size the rest is fed
    /// in (bits 2–7); the rest is the byte stream. Checked: the same frames and the same error whether the stream
    /// arrives whole or in pieces; the frames, encoded again, decode to themselves; a text message is UTF-8; an error
    /// names 1002, 1007 or 1009 with a reason that fits a close frame.
    static let frames = FuzzTarget(
        name: "websocket-frames",
        summary: "WebSocketFrameDecoder and WebSocketParser; split-independent, re-encodes to itself, errors carry 1002/1007/1009"
    ) { data in
        guard let settings = data.first else { return }
        let role: WebSocketRole = settings & 1 == 0 ? .client : .server
        let limits = settings & 2 == 0 ? WebSocketLimits() : WebSocketLimits(maximumFrameSize: 200, maximumMessageSize: 500)
        let stream = Array(data.dropFirst())
        let pieceSize = Int(settings >> 2) + 1

        let whole = decode([stream[...]], role: role, limits: limits)
        let pieces = stride(from: 0, to: stream.count, by: pieceSize).map { stream[$0..<min($0 + pieceSize, stream.count)] }
        let split = decode(pieces, role: role, limits: limits)
        FuzzCheck.require(whole.frames == split.frames, "frames differ when the stream arrives in \(pieceSize)-byte pieces")
        FuzzCheck.require(whole.error == split.error, "error \(String(describing: whole.error)) whole, \(String(describing: split.error)) in pieces")
        if let error = whole.error {
            FuzzCheck.require([1002, 1007, 1009].contains(error.closeCode.rawValue), "\(error) closes with \(error.closeCode)")
            FuzzCheck.require(error.reason.utf8.count <= 123, "reason of \(error.reason.utf8.count) bytes")
        }

        var again: [UInt8] = []
        for frame in whole.frames {
            WebSocketFrameEncoder.append(frame, maskingKey: role == .server ? WebSocketMaskingKey(rawValue: 0x1234_5678) : nil, to: &again)
        }
        let reencoded = decode([again[...]], role: role, limits: limits)
        FuzzCheck.require(reencoded.error == nil && reencoded.frames == whole.frames, "re-encoded frames do not decode to themselves")

        var parser = WebSocketParser(role: role, limits: limits)
        parser.append(stream)
        while let event = try? parser.next() {
            if case .message(.text(let text)) = event {
                FuzzCheck.require(String(validating: Array(text.utf8), as: UTF8.self) == text, "a text message is not UTF-8")
            }
        }
    }

    /// A `Sec-WebSocket-Extensions` value: one that parses is written back as a value that parses to the same list.
    static let extensions = FuzzTarget(
        name: "websocket-extensions",
        summary: "WebSocketExtension.parseList; what parses writes back to a value that parses the same"
    ) { data in
        let value = String(decoding: data, as: UTF8.self)
        guard let parsed = try? WebSocketExtension.parseList(value) else { return }
        let written = WebSocketExtension.headerValue(parsed)
        FuzzCheck.require((try? WebSocketExtension.parseList(written)) == parsed, "\"\(written)\" does not parse back")
    }

    private static func decode(
        _ pieces: [ArraySlice<UInt8>], role: WebSocketRole, limits: WebSocketLimits
    ) -> (frames: [WebSocketFrame], error: WebSocketProtocolError?) {
        var decoder = WebSocketFrameDecoder(role: role, limits: limits)
        var frames: [WebSocketFrame] = []
        do {
            for piece in pieces {
                decoder.append(piece)
                while let frame = try decoder.nextFrame() { frames.append(frame) }
            }
            return (frames, nil)
        } catch {
            return (frames, error)
        }
    }
}
