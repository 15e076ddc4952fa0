import Foundation
import Testing
import TapedeckCassette
import TapedeckWebSocket

/// How a replay compares what the client sends with the recording: exactly, or as JSON; stand-ins match any value.
@Suite struct WebSocketFrameMatcherTests {
    @Test func exactComparesTextAsItIs() {
        let exact = WebSocketFrameMatcher()
        #expect(exact.matches(.text("a"), recorded: .text("a")))
        #expect(!exact.matches(.text(#"{"b":1,"a":2}"#), recorded: .text(#"{"a":2,"b":1}"#)))
        #expect(!exact.matches(.text("a"), recorded: .binary(Data("a".utf8))))
        #expect(!exact.matches(.close(WebSocketClose(code: .normalClosure)), recorded: .close(WebSocketClose(code: .goingAway))))
    }

    @Test func jsonIgnoresMemberOrderAndNumberSpellingOnly() {
        let json = WebSocketFrameMatcher(mode: .json)
        #expect(json.matches(.text(#"{"b":1,"a":[2, {"c":null}]}"#), recorded: .text(#"{"a":[2.0,{"c":null}],"b":1}"#)))
        #expect(!json.matches(.text(#"{"a":[{"c":null}, 2]}"#), recorded: .text(#"{"a":[2,{"c":null}]}"#)))
        #expect(!json.matches(.text(#"{"a":1}"#), recorded: .text(#"{"a":1,"b":2}"#)))
        #expect(!json.matches(.text("not json"), recorded: .text("not  json")))
        #expect(!json.matches(.binary(Data(#"{"a":1}"#.utf8)), recorded: .binary(Data(#"{ "a":1}"#.utf8))))
    }

    /// A recorded stand-in matches whatever value stands in its place, as request matching blurs them.
    @Test func aStandInMatchesAnyStandIn() {
        let exact = WebSocketFrameMatcher()
        #expect(exact.matches(.text(#"{"token":"REDACTED-y9trgc16et7x"}"#), recorded: .text(#"{"token":"REDACTED-abcdefghjkmn"}"#)))
        #expect(!exact.matches(.text(#"{"token":"hunter2"}"#), recorded: .text(#"{"token":"REDACTED-abcdefghjkmn"}"#)))
    }
}
