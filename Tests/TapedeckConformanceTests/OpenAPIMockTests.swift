import Foundation
import Testing
import TapedeckCassette
@testable import TapedeckConformance
import TapedeckCore

/// `OpenAPIMock` as pure logic: which status, media type and body a request gets, and why it is refused.
@Suite struct OpenAPIMockTests {
    static let pets = try! OpenAPIConformance(contentsOf: OpenAPIConformanceTests.fixtures.appendingPathComponent("pets-mock.yaml"))
    let mock = OpenAPIMock(pets, seed: 7)

    static func request(_ method: String, _ path: String, headers: HTTPHeaders = [:], json: String? = nil) -> Interaction.Request {
        var headers = headers
        if json != nil { headers["Content-Type"] = "application/json" }
        return Interaction.Request(method: method, url: path, headers: headers, body: json.map { CassetteBody(Data($0.utf8)) } ?? .empty)
    }

    static func body(_ response: Interaction.Response) -> JSONValue? {
        JSONValue(parsing: response.body.inlineData ?? Data())
    }

    /// Whether `response`, as the answer to `request`, conforms to the document (the checker of recorded cassettes).
    static func conforms(_ request: Interaction.Request, _ response: Interaction.Response) -> [String] {
        var absolute = request
        absolute.url = "https://pets.example.com" + request.url
        return pets.check(Interaction(request: absolute, outcome: .response(response))).violations.map(\.description)
    }

    @Test func theMediaTypeExampleAnswersUnderTheServersBasePath() {
        let answer = mock.respond(to: Self.request("GET", "/v1/pets?limit=5"))
        #expect(answer.statusCode == 200)
        #expect(answer.headers["Content-Type"] == "application/json")
        #expect(Self.body(answer) == [["id": 1, "name": "Rex", "kind": "dog"]])
        #expect(Int(answer.headers["X-Total-Count"] ?? "") != nil, "a documented header gets a value from its schema")
    }

    @Test func acceptChoosesTheMediaTypeAndRefusesWhatIsNotDocumented() {
        let text = mock.respond(to: Self.request("GET", "/v1/pets", headers: ["Accept": "text/html;q=0.2, text/plain"]))
        #expect(text.statusCode == 200 && text.headers["Content-Type"] == "text/plain")
        #expect(text.body.inlineData == Data("Rex the dog".utf8))
        let refused = mock.respond(to: Self.request("GET", "/v1/pets", headers: ["Accept": "image/png"]))
        #expect(refused.statusCode == 406)
        #expect(Self.body(refused)?["detail"]?.stringValue == "listPets 200 answers application/json, text/plain; Accept allows image/png")
    }

    @Test func namedExamplesAndOtherStatusesAreChosenWithPrefer() {
        let newPet = #"{"name": "Tom", "kind": "cat"}"#
        let first = mock.respond(to: Self.request("POST", "/v1/pets", json: newPet))
        #expect(first.statusCode == 201 && Self.body(first) == ["id": 2, "name": "Rex", "kind": "dog"])
        let cat = mock.respond(to: Self.request("POST", "/v1/pets", headers: ["Prefer": "example=cat"], json: newPet))
        #expect(Self.body(cat) == ["id": 3, "name": "Tom", "kind": "cat"], "a named example given as a $ref")
        let missing = mock.respond(to: Self.request("GET", "/v1/pets/9", headers: ["Prefer": "code=404"]))
        #expect(missing.statusCode == 404 && Self.body(missing) == ["code": 404, "message": "no such pet"])
        let noBody = mock.respond(to: Self.request("POST", "/v1/pets", headers: ["Prefer": "code=422"], json: newPet))
        #expect(noBody.statusCode == 422 && noBody.body.isEmpty)
        let undocumented = mock.respond(to: Self.request("GET", "/v1/pets/9", headers: ["Prefer": "code=418"]))
        #expect(undocumented.statusCode == 400)
        #expect(Self.body(undocumented)?["detail"]?.stringValue == "getPet documents 200, 404, not 418")
    }

    @Test func aValueGeneratedFromTheSchemaConformsAndDependsOnlyOnTheSeed() {
        let request = Self.request("GET", "/v1/pets/12")
        let answer = mock.respond(to: request)
        #expect(answer.statusCode == 200)
        #expect(Self.conforms(request, answer) == [])
        let pet = Self.body(answer)
        #expect(pet?["chip"]?.stringValue?.count == 36 && pet?["owner"]?.stringValue?.hasSuffix("@example.com") == true)
        #expect(OpenAPIMock(Self.pets, seed: 7).respond(to: request) == answer, "the same seed gives the same body")
        let others = (0..<8).map { OpenAPIMock(Self.pets, seed: UInt64($0)).respond(to: request).body }
        #expect(Set(others).count > 4, "other seeds give other values")
    }

    @Test func generatedValuesConformForManySeeds() {
        for seed in 0..<200 {
            let mock = OpenAPIMock(Self.pets, seed: UInt64(seed))
            for path in ["/v1/pets/3", "/v1/pets/3/family"] {
                let request = Self.request("GET", path)
                let answer = mock.respond(to: request)
                #expect(answer.statusCode == 200 && Self.conforms(request, answer) == [], "seed \(seed) \(path): \(answer)")
            }
        }
    }

    @Test func aRequestThatBreaksTheDocumentGets400WithEveryViolation() {
        // createPet documents its own error answer (422, no body): that is what an invalid request gets.
        let documented = mock.respond(to: Self.request("POST", "/v1/pets", json: #"{"name": "", "kind": "fish", "age": 3}"#))
        #expect(documented.statusCode == 422 && documented.body.isEmpty)
        #expect(documented.headers["Tapedeck-Violations"] == "3 violation(s): request body/age: additionalProperties: "
                + #"the member "age" is not allowed; request body/kind: enum: "fish" is not one of ["dog","cat","bird"]; "#
                + "request body/name: minLength: is 0 characters long, shorter than 1")
        let withoutTheirOwn = OpenAPIMock(try! OpenAPIConformance(document: Data("""
            openapi: 3.1.0
            info: {title: t, version: '1'}
            paths:
              /v1/pets:
                post:
                  requestBody: {content: {application/json: {schema: {$ref: '#/components/schemas/NewPet'}}}}
                  responses: {'201': {description: created}}
            components:
              schemas:
                NewPet:
                  type: object
                  additionalProperties: false
                  required: [name, kind]
                  properties: {name: {type: string, minLength: 1}, kind: {enum: [dog, cat]}}
            """.utf8)))
        let answer = withoutTheirOwn.respond(to: Self.request("POST", "/v1/pets", json: #"{"name": "", "kind": "fish", "age": 3}"#))
        #expect(answer.statusCode == 400 && answer.headers["Content-Type"] == "application/problem+json")
        let problem = Self.body(answer)
        #expect(problem?["title"]?.stringValue == "The request does not conform to the OpenAPI document")
        let violations = problem?["violations"]?.arrayValue ?? []
        #expect(violations.map { "\($0["place"]?.stringValue ?? "") \($0["pointer"]?.stringValue ?? "") \($0["rule"]?.stringValue ?? "")" } == [
            "request body /age additionalProperties", "request body /kind enum", "request body /name minLength",
        ])
        let query = mock.respond(to: Self.request("GET", "/v1/pets?limit=500"))
        #expect(query.statusCode == 400)
        #expect(Self.body(query)?["violations"]?[0]?["message"]?.stringValue == "500 is greater than 100")
        let path = mock.respond(to: Self.request("GET", "/v1/pets/rex"))
        #expect(path.statusCode == 400 && Self.body(path)?["violations"]?[0]?["place"] == "path parameter id")
    }

    @Test func unknownPathsAndMethodsAreRefusedLikeAServerWould() {
        let notFound = mock.respond(to: Self.request("GET", "/v1/owners"))
        #expect(notFound.statusCode == 404 && Self.body(notFound)?["detail"] == "no path in the document matches /v1/owners")
        let outsideTheBasePath = mock.respond(to: Self.request("GET", "/pets"))
        #expect(outsideTheBasePath.statusCode == 404)
        let method = mock.respond(to: Self.request("PUT", "/v1/pets/1"))
        #expect(method.statusCode == 405 && method.headers["Allow"] == "DELETE, GET")
        let deleted = mock.respond(to: Self.request("DELETE", "/v1/pets/1"))
        #expect(deleted.statusCode == 204 && deleted.body.isEmpty)
    }

    @Test func aSchemaNoValueCanBeMadeForIsNamedAndAnswered500() {
        #expect(mock.problems.count == 1)
        #expect(mock.problems.first?.hasPrefix("listTags 200 application/json: no generated value conforms (/: pattern:") == true,
                "\(mock.problems)")
        #expect(JSONValue(parsing: mock.respond(to: Self.request("GET", "/v1/pets/1")).body.inlineData ?? Data())?["code"]?
            .stringValue?.count ?? 0 >= 8, "a pattern of the common kind is sampled")
        let answer = mock.respond(to: Self.request("GET", "/v1/tags"))
        #expect(answer.statusCode == 500)
        #expect(Self.body(answer)?["detail"]?.stringValue?.hasSuffix("document an example") == true)
    }

    @Test func preferAndAcceptAreReadAsPrismReadsThem() {
        let preferences = MockPreferences(prefer: #"code=404, example="cat""#, accept: "text/*;q=0.5, application/json, image/png;q=0")
        #expect(preferences.code == 404 && preferences.example == "cat")
        #expect(preferences.accepted == ["application/json", "text/*"])
        #expect(MockPreferences(prefer: "code=201; example=dog", accept: nil).example == "dog")
    }
}
