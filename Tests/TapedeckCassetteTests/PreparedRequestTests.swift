import Foundation
import Testing
@testable import TapedeckCassette

/// A request half redacted and spelled out ahead (while the request is on the wire) must give the very interaction
/// and journal line that redacting the whole interaction at once gives.
@Suite struct PreparedRequestTests {
    /// Redacts `recorded` both ways; returns whether the prepared request JSON was reused.
    @discardableResult
    func expectSameBothWays(_ recorded: Interaction, _ redaction: Redaction, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        var whole = recorded
        redaction.redact(&whole)
        let prepared = PreparedRequest(recorded.request, redaction: redaction)
        var ahead = recorded
        let reused = redaction.redact(&ahead, prepared: prepared)
        #expect(ahead == whole, sourceLocation: sourceLocation)
        let line = CassetteFile.journalLine(ahead, sequence: 7, requestJSON: reused ? prepared.json : nil)
        #expect(line == CassetteFile.journalLine(whole, sequence: 7), sourceLocation: sourceLocation)
        return reused
    }

    @Test func requestSecretsAreRedactedAheadAndTheSpellingIsReused() {
        var recorded = RedactionTests().secretInteraction()
        // Its response sets a cookie the request did not carry: the request half is redacted again, with it.
        #expect(!expectSameBothWays(recorded, .default))
        #expect(expectSameBothWays(recorded, .disabled))
        recorded.outcome = .response(.init(statusCode: 200, headers: ["Content-Type": "application/json"],
                                           body: CassetteBody(Data(#"{"token":"json-token-77","echo":"s3cr3t-bearer"}"#.utf8))))
        #expect(expectSameBothWays(recorded, .default))
        #expect(expectSameBothWays(interaction("GET", "http://127.0.0.1/plain?b=2&a=1", responseBody: "ok"), .default))
        #expect(expectSameBothWays(interaction("POST", "http://127.0.0.1/form", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                               body: "user=ann&password=pw-hunter2", responseBody: "hello ann, pw-hunter2"), .default))
    }

    @Test func aCookieTheResponseSetsIsScrubbedFromTheRequestToo() throws {
        // The response sets a cookie whose value the request already carried in a field that is not secret by name.
        let recorded = Interaction(
            request: .init(method: "POST", url: "http://127.0.0.1/session", headers: ["Content-Type": "application/json"],
                           body: CassetteBody(Data(#"{"resume":"cookie-v4lue-9"}"#.utf8))),
            outcome: .response(.init(statusCode: 200, headers: ["Set-Cookie": "sid=cookie-v4lue-9; Path=/"], body: CassetteBody(Data("ok".utf8)))))
        #expect(!expectSameBothWays(recorded, .default))
        var ahead = recorded
        _ = Redaction.default.redact(&ahead, prepared: PreparedRequest(recorded.request, redaction: .default))
        #expect(ahead.request.body.inlineData == Data(#"{"resume":"[REDACTED]"}"#.utf8))
        // A cookie value the request had as a secret already changes nothing.
        var known = RedactionTests().secretInteraction()
        known.outcome = .response(.init(statusCode: 200, headers: ["Set-Cookie": "sid=cookie-value-42"], body: CassetteBody(Data())))
        #expect(expectSameBothWays(known, .default))
    }

    @Test func filtersRunTheSameWayAndAnInteractionFilterThatEditsTheRequestIsRespelled() throws {
        var redaction = Redaction.default
        redaction.filters = [
            .request { $0.headers["X-Request-Filter"] = "ran" },
            try .regex("order-[0-9]+", replacement: "order-N"),
            .jsonPath("customer.name"),
        ]
        let recorded = interaction("POST", "http://127.0.0.1/orders/order-12", headers: ["Content-Type": "application/json"],
                                   body: #"{"customer":{"name":"Ann"},"id":"order-12"}"#, responseBody: "order-12 accepted")
        #expect(expectSameBothWays(recorded, redaction))

        redaction.filters.append(.interaction { $0.request.headers["X-Interaction-Filter"] = "ran" })
        #expect(!expectSameBothWays(recorded, redaction))
        redaction.filters[redaction.filters.count - 1] = .interaction { $0.recordedAt = Date(timeIntervalSince1970: 0) }
        #expect(expectSameBothWays(recorded, redaction))
    }
}
