import Foundation
import Testing
import TapedeckCassette
import TapedeckTestSupport

/// A WebSocket conversation in the cassette file (format version 2): written only when there is one, read back
/// without loss, refused with the place named when malformed, redacted as bodies are, and a cut-off one says where.
@Suite struct WebSocketCassetteFormatTests {
    typealias Frame = WebSocketTranscript.Frame
    static let chat = CompatibilityCorpus.url("Cassettes/Compatibility/v2/websocket-chat.json")
    static let cut = CompatibilityCorpus.url("Cassettes/Compatibility/v2/websocket-cut.json")

    static func interaction(_ frames: [Frame], headers: HTTPHeaders = [:]) -> Interaction {
        Interaction(request: .init(method: "GET", url: "ws://127.0.0.1:9/chat", headers: headers),
                    outcome: .response(.init(statusCode: 101, reasonPhrase: "Switching Protocols")),
                    webSocket: WebSocketTranscript(frames: frames))
    }

    static func decode(_ text: String) throws(CassetteError) -> Cassette {
        try CassetteCodec.decode(Data(text.utf8), file: "ws.json")
    }

    static func frames(_ elements: String, version: Int = 2) -> String {
        #"{"version": \#(version), "interactions": [{"recordedAt": "2026-01-01T00:00:00.000Z", "request": {"method": "GET", "url": "ws://a/", "headers": []}, "response": {"status": 101, "headers": []}, "webSocket": {"frames": [\#(elements)]}}]}"#
    }

    static func invalid(at path: String, saying words: String) -> (any Error) -> Bool {
        { error in
            guard case CassetteError.invalidFormat(file: "ws.json", path: path, let reason) = error else { return false }
            return reason.contains(words)
        }
    }

    @Test func theCorpusConversationHoldsEveryKindInOrder() throws {
        let cassette = try CassetteFile.load(Self.chat)
        #expect(cassette.formatVersion == 2)
        #expect(cassette.interactions[0].webSocket == nil)
        let transcript = try #require(cassette.interactions[1].webSocket)
        #expect(transcript.isComplete && transcript.cut == nil)
        #expect(transcript.frames.count == 13)
        #expect(transcript.frames[0] == Frame(direction: .server, kind: .text("welcome to lobby"), offset: 0.002113))
        #expect(transcript.frames[4].kind == .ping(Data("keepalive".utf8)))
        #expect(transcript.frames[6].kind == .binary(Data([0x00, 0xFF, 0x10, 0x80, 0x7F])))
        #expect(transcript.frames[11].kind == .close(WebSocketClose(code: .normalClosure, reason: "bye")))
        #expect(cassette.interactions[1].response?.statusCode == 101)
        #expect(cassette.interactions[1].request.headers["Sec-WebSocket-Key"] == "dGhlIHNhbXBsZSBub25jZQ==")
    }

    @Test func aCassetteWithoutAConversationIsStillVersionOneAndOneWithItIsTwo() {
        var cassette = Cassette(interactions: [Interaction(request: .init(method: "GET", url: "http://a/"), outcome: .response(.init(statusCode: 204)))])
        #expect(String(decoding: CassetteCodec.encode(cassette), as: UTF8.self).hasPrefix("{\n  \"version\": 1,"))
        cassette.interactions.append(Self.interaction([Frame(direction: .client, kind: .text("hi"), offset: 0.5)]))
        let text = String(decoding: CassetteCodec.encode(cassette), as: UTF8.self)
        #expect(text.hasPrefix("{\n  \"version\": 2,"))
        #expect(text.contains("\n          {\"from\":\"client\",\"at\":0.5,\"text\":\"hi\"}\n"))
    }

    @Test func everyKindRoundTrips() throws {
        let frames = [
            Frame(direction: .client, kind: .text("ä \"q\" \u{1}"), offset: 0.000001),
            Frame(direction: .server, kind: .binary(Data([0, 1, 255])), offset: 0.1),
            Frame(direction: .server, kind: .ping(Data()), offset: 0.1),
            Frame(direction: .client, kind: .pong(Data("x".utf8)), offset: 1e-3 + 0.1),
            Frame(direction: .client, kind: .close(WebSocketClose(code: .noStatusReceived)), offset: 2),
            Frame(direction: .server, kind: .close(WebSocketClose(code: WebSocketCloseCode(rawValue: 4999), reason: "fin")), offset: 2.5),
        ]
        let cassette = Cassette(interactions: [Self.interaction(frames)])
        #expect(try CassetteCodec.decode(CassetteCodec.encode(cassette)) == cassette)
    }

    @Test func aVersionOneFileWithAConversationIsRefused() {
        #expect(performing: { try Self.decode(Self.frames(#"{"from": "client", "at": 0, "text": "a"}"#, version: 1)) }, throws: Self.invalid(at: "interactions[0].webSocket", saying: "needs format version 2"))
    }

    @Test func aMalformedFrameIsNamedWhereItIs() {
        #expect(performing: { try Self.decode(Self.frames(#"{"from": "browser", "at": 0, "text": "a"}"#)) }, throws: Self.invalid(at: "interactions[0].webSocket.frames[0].from", saying: "\"client\" or \"server\""))
        #expect(performing: { try Self.decode(Self.frames(#"{"from": "client", "at": -1, "text": "a"}"#)) }, throws: Self.invalid(at: "interactions[0].webSocket.frames[0].at", saying: "≥ 0"))
        #expect(performing: { try Self.decode(Self.frames(#"{"from": "client", "at": 0, "text": "a", "ping": ""}"#)) }, throws: Self.invalid(at: "interactions[0].webSocket.frames[0]", saying: "found text and ping"))
        #expect(performing: { try Self.decode(Self.frames(#"{"from": "client", "at": 0}"#)) }, throws: Self.invalid(at: "interactions[0].webSocket.frames[0]", saying: "needs one of text, binary"))
        #expect(performing: { try Self.decode(Self.frames(#"{"from": "client", "at": 0, "binary": "%%"}"#)) }, throws: Self.invalid(at: "interactions[0].webSocket.frames[0].binary", saying: "base64"))
        #expect(performing: { try Self.decode(Self.frames(#"{"from": "server", "at": 0, "close": {"code": 70000}}"#)) }, throws: Self.invalid(at: "interactions[0].webSocket.frames[0].close.code", saying: "1000 to 4999"))
        #expect(performing: { try Self.decode(Self.frames(#"{"from": "server", "at": 1, "text": "a"}, {"from": "server", "at": 0.5, "text": "b"}"#)) }, throws: Self.invalid(at: "interactions[0].webSocket.frames[1].at", saying: "before the previous frame"))
    }

    @Test func aCutOffConversationLoadsAndSaysWhereItEnds() throws {
        let cassette = try CassetteFile.load(Self.cut)
        let transcript = try #require(cassette.interactions.first?.webSocket)
        #expect(!transcript.isComplete)
        #expect(transcript.frames.count == 4)
        #expect(transcript.cut == "after frame 4 (client close 4001 at 0.600 s)")
        #expect(WebSocketTranscript().cut == "before its first frame")
    }

    /// Text payloads are redacted as bodies are: a sensitive JSON member becomes the same stand-in as the header
    /// that carried the token, its copies are scrubbed (in text and in binary payloads that are text), and filters apply.
    @Test func textPayloadsAreRedactedAsBodiesAre() throws {
        let token = "tok_3f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c"
        var cassette = Cassette(interactions: [Self.interaction([
            Frame(direction: .client, kind: .text(#"{"type":"auth","password":"hunter2-hunter2","n":1}"#), offset: 0.1),
            Frame(direction: .server, kind: .text("your token is \(token), card 4111-1111"), offset: 0.2),
            Frame(direction: .server, kind: .binary(Data(token.utf8)), offset: 0.3),
            Frame(direction: .server, kind: .binary(Data([0xFF]) + Data(token.utf8)), offset: 0.35),
            Frame(direction: .server, kind: .close(WebSocketClose(code: .normalClosure, reason: "card 4111-1111")), offset: 0.4),
        ], headers: ["Authorization": "Bearer \(token)", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="])],
        redactionSalt: RedactionSalt("00112233445566778899aabbccddeeff"))
        var policy = Redaction.default
        policy.filters.append(try .regex(#"\d{4}-\d{4}"#, replacement: "####-####"))
        policy.redact(&cassette)
        let interaction = cassette.interactions[0]
        let frames = try #require(interaction.webSocket).frames
        guard case .text(let auth) = frames[0].kind, case .text(let said) = frames[1].kind else {
            Issue.record("the text frames are gone: \(frames)")
            return
        }
        #expect(!auth.contains("hunter2") && auth.hasPrefix(#"{"type":"auth","password":""#) && auth.hasSuffix(#"","n":1}"#))
        let bearer = try #require(interaction.request.headers["Authorization"])
        #expect(!bearer.contains(token))
        let standIn = String(bearer.dropFirst("Bearer ".count))
        #expect(said == "your token is \(standIn), card ####-####")
        #expect(frames[2].kind == .binary(Data(standIn.utf8)))
        // A binary payload that is not text is kept byte for byte, as a binary body is.
        #expect(frames[3].kind == .binary(Data([0xFF]) + Data(token.utf8)))
        #expect(frames[4].kind == .close(WebSocketClose(code: .normalClosure, reason: "card ####-####")))
        #expect(interaction.request.headers["Sec-WebSocket-Key"] == "dGhlIHNhbXBsZSBub25jZQ==")
        // What was written reads back as written.
        #expect(try CassetteCodec.decode(CassetteCodec.encode(cassette)) == cassette)
    }
}

/// A conversation survives a HAR export and import (Chrome DevTools' `_webSocketMessages`), every frame kind with
/// its direction and time.
@Suite struct WebSocketHARTests {
    @Test func theCorpusConversationRoundTripsThroughHAR() throws {
        let cassette = try CassetteFile.load(WebSocketCassetteFormatTests.chat)
        let har = HARCodec.export(cassette)
        let text = String(decoding: har, as: UTF8.self)
        #expect(text.contains(#""_resourceType" : "websocket""#) || text.contains(#""_resourceType": "websocket""#))
        let imported = try HARCodec.import(har)
        #expect(imported.interactions[1].webSocket == cassette.interactions[1].webSocket)
        #expect(imported.interactions[0].webSocket == nil)
    }

    @Test func aBadMessageIsNamed() {
        let har = #"{"log": {"entries": [{"startedDateTime": "2026-01-01T00:00:00.000Z", "time": 1, "request": {"method": "GET", "url": "ws://a/", "headers": []}, "response": {"status": 101, "headers": [], "content": {"size": 0, "mimeType": ""}}, "_webSocketMessages": [{"type": "send", "time": 1767225600.5, "opcode": 2, "data": "%%"}]}]}}"#
        #expect(performing: { try HARCodec.import(Data(har.utf8)) }, throws: { error in
            guard case CassetteError.invalidHAR(path: "log.entries[0]._webSocketMessages[0]", let reason) = error else { return false }
            return reason.contains("base64")
        })
    }
}
