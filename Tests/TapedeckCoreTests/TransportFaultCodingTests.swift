import Foundation
import Testing
import TapedeckCore

/// `TransportFault`'s one JSON form: what stub definitions write, read back, and refuse with the place and reason.
@Suite struct TransportFaultCodingTests {
    static let faults: [TransportFault] = [
        .closeWithoutResponse, .reset, .malformedStatusLine, .malformedHeaders, .malformedResponse(Data([0xFF, 0x00, 0x41])),
        .partialBody(sent: 2, declared: 5), .noResponse, .stall(sent: 0), .stall(sent: 7), .status(503),
    ]

    @Test func everyFaultReadsBackAsWritten() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(Self.faults)
        #expect(try JSONDecoder().decode([TransportFault].self, from: data) == Self.faults)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#"{"fault":"partialBody","partialBodyDeclared":5,"partialBodySent":2}"#))
        #expect(text.contains(#"{"base64Body":"/wBB","fault":"malformedResponse"}"#))
        #expect(text.contains(#"{"fault":"stall","partialBodySent":7}"#))
        #expect(text.contains(#"{"fault":"status","status":503}"#))
    }

    @Test func theSpellingsOfADefinitionAreRead() throws {
        let json = #"[{"fault": "reset"}, {"fault": "malformedResponse", "body": "HTTP/1.1 2"}, {"fault": "stall"}]"#
        #expect(try JSONDecoder().decode([TransportFault].self, from: Data(json.utf8))
                == [.reset, .malformedResponse(Data("HTTP/1.1 2".utf8)), .stall(sent: 0)])
    }

    @Test(arguments: [
        (#"[{"fault": "explode"}]"#, "[0].fault", #"unknown fault "explode"; use one of closeWithoutResponse, reset"#),
        (#"[{"fault": "reset"}, {"fault": "reset", "status": 500}]"#, "[1]", "the reset fault takes no other member; remove status"),
        (#"[{"fault": "partialBody", "partialBodySent": 5, "partialBodyDeclared": 5}]"#, "[0]",
         "the partialBody fault needs partialBodySent and partialBodyDeclared with 0 < sent < declared"),
        (#"[{"fault": "status", "status": 42}]"#, "[0].status", "must be between 200 and 599, got 42"),
        (#"[{"fault": "status", "status": 101}]"#, "[0].status", "101 is an informational status"),
        (#"[{"fault": "malformedResponse", "body": "a", "base64Body": "YQ=="}]"#, "[0]",
         "the malformedResponse fault sends exactly the bytes of one body or base64Body"),
        (#"[{"fault": "malformedResponse", "base64Body": "%%"}]"#, "[0].base64Body", "is not valid base64"),
        (#"[{"fault": "stall", "partialBodySent": -1}]"#, "[0].partialBodySent", "must not be negative, got -1"),
        (#"[{"fault": "noResponse", "partialBodySent": 3, "body": "x"}]"#, "[0]", "the noResponse fault takes no other member; remove body, partialBodySent"),
    ])
    func badFaultsSayWhereAndWhat(json: String, place: String, reason: String) {
        do {
            _ = try JSONDecoder().decode([TransportFault].self, from: Data(json.utf8))
            Issue.record("decoded \(json)")
        } catch DecodingError.dataCorrupted(let context) {
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            #expect(path == place)
            #expect(context.debugDescription.hasPrefix(reason), "\(context.debugDescription)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
