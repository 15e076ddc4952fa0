import Foundation
import Testing
import TapedeckCassette
@testable import TapedeckCLICore

/// Pact XML bodies (issue H7): served as stubs and verified against recordings, element by element, with rules on
/// attributes (`['@id']`), text (`#text`) and repeated children (a `type` rule).
@Suite struct PactXMLTests {
    static let contract = #"""
        {"consumer": {"name": "web"}, "provider": {"name": "zoo"}, "metadata": {"pactSpecification": {"version": "3.0.0"}},
         "interactions": [
          {"description": "adopt an animal", "request": {"method": "POST", "path": "/adoptions",
             "headers": {"Content-Type": "application/xml"},
             "body": "<?xml version=\"1.0\"?><adopt xmlns=\"urn:zoo\"><animal id=\"7\">Mary</animal></adopt>",
             "matchingRules": {"body": {"$['urn:zoo:adopt']['urn:zoo:animal']['@id']": {"matchers": [{"match": "regex", "regex": "[0-9]+"}]},
                                        "$['urn:zoo:adopt']['urn:zoo:animal']['#text']": {"matchers": [{"match": "type"}]}}}},
           "response": {"status": 201, "headers": {"Content-Type": "application/xml"},
             "body": "<animals><alligator name=\"Mary\"/></animals>",
             "matchingRules": {"body": {"$.animals": {"matchers": [{"match": "type", "min": 1}]},
                                        "$.animals.alligator['@name']": {"matchers": [{"match": "regex", "regex": "[A-Z][a-z]+"}]}}}}}]}
        """#

    static func request(_ body: String) -> Interaction.Request {
        .init(method: "POST", url: "/adoptions", headers: ["Content-Type": "application/xml"], body: CassetteBody(Data(body.utf8)))
    }

    @Test func stubsMatchXMLRequestsByTheirRulesWhateverTheNamespacePrefix() throws {
        let stubs = try PactStubs(PactImport.read(Data(Self.contract.utf8)))
        let prefixed = stubs.respond(to: Self.request(#"<z:adopt xmlns:z="urn:zoo"><z:animal id="12"> Tom </z:animal></z:adopt>"#))
        #expect(prefixed.interaction == "adopt an animal" && prefixed.response.statusCode == 201)

        let wrong = stubs.respond(to: Self.request(#"<adopt xmlns="urn:zoo"><animal id="x7" kind="cat">Tom</animal><keeper/></adopt>"#))
        #expect(wrong.response.statusCode == 404)
        #expect(String(decoding: wrong.response.body.inlineData ?? Data(), as: UTF8.self) == """
            no interaction of the Pact contract between web and zoo matches POST /adoptions
            nearest: adopt an animal
              - $['urn:zoo:adopt']['urn:zoo:animal']: expected 1 attribute(s), got 2
              - $['urn:zoo:adopt']['urn:zoo:animal']['@id']: 'x7' does not match the rule
              - $['urn:zoo:adopt']: unexpected child <urn:zoo:keeper>

            """)
        let broken = stubs.respond(to: Self.request("<adopt><animal"))
        #expect(String(decoding: broken.response.body.inlineData ?? Data(), as: UTF8.self).contains("body: not well-formed XML at line 1"))
    }

    @Test func recordedXMLAnswersAreVerifiedElementByElement() throws {
        let pact = try PactImport.read(Data(Self.contract.utf8))
        func cassette(answer: String) -> Cassette {
            Cassette(interactions: [Interaction(
                request: Self.request(#"<adopt xmlns="urn:zoo"><animal id="3">Rex</animal></adopt>"#),
                outcome: .response(.init(statusCode: 201, headers: ["Content-Type": "application/xml; charset=utf-8"],
                                         body: CassetteBody(Data(answer.utf8)))))])
        }
        let honoured = try PactVerification.check(cassette(answer: #"<animals><alligator name="Sue" age="3"/><alligator name="Al"/></animals>"#),
                                                  against: pact) { $0.inlineData ?? Data() }
        #expect(honoured.passed, "\(honoured.outcomes)")
        let broken = try PactVerification.check(cassette(answer: #"<animals><alligator name="sue"/><crocodile/></animals>"#),
                                                against: pact) { $0.inlineData ?? Data() }
        #expect(broken.outcomes.first?.problems == [
            "response $.animals.alligator['@name']: 'sue' does not match the rule",
            "response $.animals: unexpected child <crocodile>",
        ])
    }
}
