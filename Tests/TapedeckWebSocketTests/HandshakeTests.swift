import Foundation
import Testing
import TapedeckCore
import TapedeckWebSocket

/// The opening handshake from both sides (RFC 6455 §4), and the extension header's grammar (§9.1).
@Suite struct HandshakeTests {
    static let key = "dGhlIHNhbXBsZSBub25jZQ=="

    @Test func keysAreSixteenRandomBytes() {
        var generator = SplitMix64(seed: 9)
        let key = WebSocketHandshake.makeKey(using: &generator)
        #expect(Data(base64Encoded: key)?.count == 16)
        #expect(WebSocketHandshake.makeKey() != WebSocketHandshake.makeKey())
        #expect(WebSocketHandshake.isValidKey(Self.key))
        #expect(!WebSocketHandshake.isValidKey("c2hvcnQ="))
    }

    @Test func aServerAnswersTheRFCExampleRequest() throws {
        let request = WebSocketHandshake.requestHeaders(
            key: Self.key, subprotocols: ["chat", "superchat"], extensions: [WebSocketExtension(name: "x-unknown")])
        #expect(request["Sec-WebSocket-Protocol"] == "chat, superchat")
        let answer = try WebSocketHandshake.answer(method: "GET", headers: request, supportedSubprotocols: ["superchat", "chat"])
        #expect(answer.accept == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        // The client's order decides; the unknown extension is declined.
        #expect(answer.negotiation == WebSocketNegotiation(subprotocol: "chat"))
        #expect(answer.headers["Sec-WebSocket-Accept"] == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        #expect(answer.headers["Sec-WebSocket-Extensions"] == nil)

        let negotiated = try WebSocketHandshake.validateResponse(
            status: 101, headers: answer.headers, key: Self.key, offeredSubprotocols: ["chat", "superchat"])
        #expect(negotiated.subprotocol == "chat")
    }

    @Test func aServerRefusesBrokenRequests() {
        var good = WebSocketHandshake.requestHeaders(key: Self.key)
        good.replaceOrAdd(name: "Connection", value: "keep-alive, Upgrade")
        #expect((try? WebSocketHandshake.answer(method: "GET", headers: good)) != nil)

        func refusal(_ change: (inout HTTPHeaders) -> Void, method: String = "GET") -> WebSocketHandshakeError? {
            var headers = good
            change(&headers)
            do throws(WebSocketHandshakeError) {
                _ = try WebSocketHandshake.answer(method: method, headers: headers)
                return nil
            } catch { return error }
        }
        #expect(refusal({ _ in }, method: "POST") == .methodNotGET("POST"))
        #expect(refusal { $0["Upgrade"] = "h2c" } == .missingUpgradeHeader("h2c"))
        #expect(refusal { $0["Connection"] = nil } == .missingConnectionUpgrade(nil))
        #expect(refusal { $0["Sec-WebSocket-Version"] = "8" } == .unsupportedVersion("8"))
        #expect(refusal { $0["Sec-WebSocket-Version"] = "8" }?.httpStatus == 426)
        #expect(refusal { $0["Sec-WebSocket-Key"] = "c2hvcnQ=" } == .invalidKey("c2hvcnQ="))
        #expect(refusal { $0["Sec-WebSocket-Key"] = "c2hvcnQ=" }?.httpStatus == 400)
        #expect(refusal { $0["Sec-WebSocket-Extensions"] = "a;;" } == .malformedExtensions("a;;"))
    }

    @Test func aClientChecksTheAnswer() {
        let answer = WebSocketServerAnswer(accept: WebSocketHandshake.acceptValue(forKey: Self.key), negotiation: WebSocketNegotiation())
        func refusal(status: Int = 101, _ change: (inout HTTPHeaders) -> Void) -> WebSocketHandshakeError? {
            var headers = answer.headers
            change(&headers)
            do throws(WebSocketHandshakeError) {
                _ = try WebSocketHandshake.validateResponse(
                    status: status, headers: headers, key: Self.key, offeredSubprotocols: ["chat"],
                    offeredExtensions: [WebSocketExtension(name: "permessage-deflate")])
                return nil
            } catch { return error }
        }
        #expect(refusal { _ in } == nil)
        #expect(refusal(status: 200) { _ in } == .unexpectedStatus(200))
        #expect(refusal { $0["Sec-WebSocket-Accept"] = "AAAA" } == .wrongAccept(expected: "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=", received: "AAAA"))
        #expect(refusal { $0["Sec-WebSocket-Protocol"] = "superchat" } == .subprotocolNotOffered("superchat"))
        #expect(refusal { $0["Sec-WebSocket-Extensions"] = "x-other" } == .extensionNotOffered("x-other"))
        #expect(refusal { $0["Sec-WebSocket-Extensions"] = "permessage-deflate; server_no_context_takeover" } == nil)
        #expect(refusal { $0["Upgrade"] = nil } == .missingUpgradeHeader(nil))
    }

    @Test func extensionsNegotiatedByTheServersChoice() throws {
        var request = WebSocketHandshake.requestHeaders(key: Self.key)
        request.add(name: "Sec-WebSocket-Extensions", value: "permessage-deflate; client_max_window_bits; server_max_window_bits=10")
        request.add(name: "Sec-WebSocket-Extensions", value: "permessage-deflate, x-foo")
        let answer = try WebSocketHandshake.answer(method: "GET", headers: request) { offer in
            offer.name == "permessage-deflate" ? WebSocketExtension(name: offer.name, parameters: [.init(name: "server_max_window_bits", value: "10")]) : nil
        }
        #expect(answer.negotiation.extensions.count == 1)
        #expect(answer.headers["Sec-WebSocket-Extensions"] == "permessage-deflate; server_max_window_bits=10")
    }

    @Test func extensionGrammar() throws {
        let parsed = try WebSocketExtension.parseList(#"foo; a=1; b="x,y\"z" , bar;c ,, baz"#)
        #expect(parsed == [
            WebSocketExtension(name: "foo", parameters: [.init(name: "a", value: "1"), .init(name: "b", value: #"x,y"z"#)]),
            WebSocketExtension(name: "bar", parameters: [.init(name: "c")]),
            WebSocketExtension(name: "baz"),
        ])
        #expect(WebSocketExtension.headerValue(parsed) == #"foo; a=1; b="x,y\"z", bar; c, baz"#)
        #expect(try WebSocketExtension.parseList(WebSocketExtension.headerValue(parsed)) == parsed)
        for bad in ["foo; =1", "foo; a=", #"foo; a="open"#, "foo bar", "foo; a=1 2", "@"] {
            #expect(throws: WebSocketHandshakeError.malformedExtensions(bad)) { try WebSocketExtension.parseList(bad) }
        }
        #expect(try WebSocketExtension.parseList("") == [])
    }
}
