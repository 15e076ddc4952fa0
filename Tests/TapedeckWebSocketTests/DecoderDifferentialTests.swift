import Foundation
import Testing
import TapedeckCore
import TapedeckTestSupport
import TapedeckWebSocket

/// The frame decoder against Python `websockets` 17.4's own receiver (its Sans-I/O `Protocol`, client side) on the
/// same random, mutated byte streams: the same frames up to the first close or failure, and the same close code for
/// a failure. Text is checked for UTF-8 the way `websockets` checks it, with Python's incremental UTF-8 decoder over
/// a message's fragments.
@Suite(.timeLimit(.minutes(10))) struct DecoderDifferentialTests {
    static let script = #"""
    import codecs, json, sys
    from websockets.frames import Close, Frame, Opcode
    from websockets.protocol import Protocol, Side, State
    from websockets.streams import StreamReader

    def sent_close_code(chunks):
        data = b"".join(chunks)
        reader = StreamReader()
        reader.feed_data(data)
        reader.feed_eof()
        while True:
            parser = Frame.parse(reader.read_exact, mask=True)
            try:
                next(parser)
            except StopIteration as stop:
                frame = stop.value
                if frame.opcode is Opcode.CLOSE:
                    return Close.parse(frame.data).code if frame.data else 1005
            except EOFError:
                return None

    results = []
    for stream in json.load(sys.stdin):
        protocol = Protocol(Side.CLIENT, state=State.OPEN, max_size=None)
        protocol.receive_data(bytes.fromhex(stream))
        frames, failure, text = [], None, None
        for frame in protocol.events_received():
            frames.append([int(frame.opcode), frame.fin, bytes(frame.data).hex()])
            if frame.opcode is Opcode.TEXT:
                text = codecs.getincrementaldecoder("utf-8")()
            elif frame.opcode is Opcode.BINARY:
                text = None
            if frame.opcode in (Opcode.TEXT, Opcode.CONT) and text is not None:
                try:
                    text.decode(bytes(frame.data), final=frame.fin)
                except UnicodeDecodeError:
                    frames.pop()
                    failure = 1007
                    break
                if frame.fin:
                    text = None
            if frame.opcode is Opcode.CLOSE:
                break
        if failure is None and protocol.parser_exc is not None:
            failure = sent_close_code(protocol.data_to_send())
        results.append({"frames": frames, "failure": failure})
    json.dump(results, sys.stdout)
    """#

    struct Verdict: Decodable, Equatable, CustomStringConvertible {
        var frames: [[Frame]]
        var failure: Int?

        enum Frame: Decodable, Equatable {
            case int(Int), bool(Bool), string(String)
            init(from decoder: Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let value = try? container.decode(Bool.self) { self = .bool(value) }
                else if let value = try? container.decode(Int.self) { self = .int(value) }
                else { self = .string(try container.decode(String.self)) }
            }
        }

        init(frames: [[Frame]], failure: Int?) {
            self.frames = frames
            self.failure = failure
        }

        var description: String { "\(frames.count) frames, failure \(failure.map(String.init) ?? "none")" }
    }

    /// A few frames from templates (text split inside a character, invalid UTF-8, binary, control frames, closes with
    /// good and bad codes and reasons), then a bit flipped in some frame's first two bytes, or bytes cut off.
    static func stream(_ generator: inout SplitMix64) -> [UInt8] {
        func frame(_ opcode: UInt8, _ payload: [UInt8], final: Bool = true) -> [UInt8] {
            WebSocketFrameEncoder.encode(
                WebSocketFrame(opcode: WebSocketOpcode(rawValue: opcode)!, payload: Data(payload), isFinal: final), maskingKey: nil)
        }
        let euro: [UInt8] = [0xE2, 0x82, 0xAC]
        let templates: [[[UInt8]]] = [
            [frame(1, Array("hello".utf8))],
            [frame(1, [0x61] + euro.prefix(2), final: false), frame(9, [7]), frame(0, [euro[2]])],
            [frame(1, [0x61, 0xC0, 0x80])],
            [frame(1, [0x61, 0xE2], final: false), frame(0, [0x41])],
            [frame(2, [0xFF, 0xFE], final: false), frame(0, [0x80, 0x81])],
            [frame(2, Array(repeating: 5, count: 200))],
            [frame(9, Array("ping".utf8)), frame(10, [])],
            [frame(8, [0x03, 0xE8] + Array("bye".utf8))],
            [frame(8, [0x03, 0xED])],
            [frame(8, [0x0F, 0xA0, 0xFF])],
            [frame(8, [0x03])],
            [frame(8, [])],
            [frame(0, [1])],
            [frame(1, [0x61], final: false), frame(2, [1])],
        ]
        var bytes: [[UInt8]] = []
        for _ in 0..<Int.random(in: 1...3, using: &generator) { bytes += templates.randomElement(using: &generator)! }
        switch Int.random(in: 0..<4, using: &generator) {
        case 0, 1:
            let index = Int.random(in: 0..<bytes.count, using: &generator)
            bytes[index][Int.random(in: 0...1, using: &generator)] ^= UInt8(1) << UInt8.random(in: 0...7, using: &generator)
        case 2:
            let whole = bytes.flatMap { $0 }
            return Array(whole.prefix(Int.random(in: 0...whole.count, using: &generator)))
        default:
            break
        }
        return bytes.flatMap { $0 }
    }

    /// What Tapedeck's decoder makes of `stream`, in the script's terms; nil where the two may differ by design:
    /// a 64-bit length with its high bit set (the RFC refuses it; `websockets` reads a huge length and waits), a
    /// frame refused from its header before its payload arrived (`websockets` refuses it once it is whole), and a
    /// close between a message's fragments (a control frame the RFC allows there; `websockets` fails with 1002).
    static func tapedeckVerdict(_ stream: [UInt8]) -> Verdict? {
        var decoder = WebSocketFrameDecoder(role: .client, limits: WebSocketLimits(maximumFrameSize: .max, maximumMessageSize: .max))
        decoder.append(stream)
        var frames: [[Verdict.Frame]] = []
        var consumed = 0
        do {
            while let frame = try decoder.nextFrame() {
                if frame.opcode == .close, decoder.isInsideMessage { return nil }
                consumed = stream.count - decoder.bufferedByteCount
                frames.append([.int(Int(frame.opcode.rawValue)), .bool(frame.isFinal), .string(frame.payload.map { String(format: "%02x", $0) }.joined())])
                if frame.opcode == .close { break }
            }
            return Verdict(frames: frames, failure: nil)
        } catch {
            if error == .payloadLengthHighBitSet || !Self.isWhole(stream[consumed...]) { return nil }
            return Verdict(frames: frames, failure: Int(error.closeCode.rawValue))
        }
    }

    /// Whether `bytes` start with a whole frame (header, mask and payload).
    static func isWhole(_ bytes: ArraySlice<UInt8>) -> Bool {
        let start = bytes.startIndex
        guard bytes.count >= 2 else { return false }
        var header = 2
        var length = Int(bytes[start + 1] & 0x7F)
        if length == 126 {
            guard bytes.count >= 4 else { return false }
            length = Int(bytes[start + 2]) << 8 | Int(bytes[start + 3])
            header = 4
        } else if length == 127 {
            guard bytes.count >= 10 else { return false }
            let wide = bytes[(start + 2)..<(start + 10)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            guard wide < UInt64(Int.max / 2) else { return false }
            length = Int(wide)
            header = 10
        }
        if bytes[start + 1] & 0x80 != 0 { header += 4 }
        return bytes.count >= header + length
    }

    @Test func theSameFramesAndCloseCodesAsWebsockets() async throws {
        guard let python = ExternalCommand.find("python3") else { try Test.cancel("python3 not found on PATH") }
        var generator = SplitMix64(seed: 0x6455_D1FF)
        let streams = (0..<3_000).map { _ in Self.stream(&generator) }
        let input = try JSONEncoder().encode(streams.map { $0.map { String(format: "%02x", $0) }.joined() })
        let output = try await ExternalCommand.run(python, ["-c", Self.script], input: input)
        if output.standardError.contains("No module named 'websockets'") {
            try Test.cancel("Python's websockets is not installed (Tools/dev/test.sh installs it)")
        }
        #expect(output.status == 0, "\(output.standardError)")
        let theirs = try JSONDecoder().decode([Verdict].self, from: output.standardOutput)
        #expect(theirs.count == streams.count)
        var compared = 0, failures = 0
        for (index, stream) in streams.enumerated() where index < theirs.count {
            guard let ours = Self.tapedeckVerdict(stream) else { continue }
            compared += 1
            if ours.failure != nil { failures += 1 }
            #expect(ours == theirs[index], "stream \(index): \(stream.map { String(format: "%02x", $0) }.joined())")
        }
        // Both kinds of streams were compared in numbers.
        #expect(compared > 2_500)
        #expect(failures > 500 && failures < compared - 500)
    }
}
