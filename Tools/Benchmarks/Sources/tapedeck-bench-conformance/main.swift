import Foundation
import TapedeckCassette
import TapedeckConformance
import TapedeckCore

// Throughput of OpenAPI conformance checking (issue G4's target: >= 20,000 interactions per second per core against a
// 100-operation document). Usage: tapedeck-bench-conformance [INTERACTIONS] [ROUNDS]
// Builds a 100-operation OpenAPI 3.1 document (50 resources, each with GET /resourcesN/{id} and POST /resourcesN,
// shared component schemas by $ref) and INTERACTIONS recorded exchanges spread over its operations (JSON bodies of
// about 400 bytes, query and path parameters), then times checking all of them on one thread, ROUNDS times.
// With `mock` first (tapedeck-bench-conformance mock [REQUESTS] [PAIRS]) it times the OpenAPI mock instead: see
// MockBenchmark.swift.

let mockMode = CommandLine.arguments.dropFirst().first == "mock"
let arguments = CommandLine.arguments.dropFirst(mockMode ? 2 : 1).compactMap { Int($0) }
let interactionCount = arguments.first ?? 20_000
let rounds = arguments.dropFirst().first ?? 7

func document(resources: Int) -> Data {
    var paths: [String: JSONValue] = [:]
    for resource in 0..<resources {
        let item: JSONValue = ["$ref": "#/components/schemas/Item"]
        paths["/resources\(resource)/{id}"] = ["get": [
            "operationId": .string("get\(resource)"),
            "parameters": [["name": "id", "in": "path", "required": true, "schema": ["type": "integer", "minimum": 1]],
                           ["name": "fields", "in": "query", "schema": ["type": "array", "items": ["type": "string"]]]],
            "responses": ["200": ["description": "ok", "content": ["application/json": ["schema": item]]],
                          "404": ["description": "missing"]],
        ]]
        paths["/resources\(resource)"] = ["post": [
            "operationId": .string("create\(resource)"),
            "requestBody": ["required": true, "content": ["application/json": ["schema": ["$ref": "#/components/schemas/NewItem"]]]],
            "responses": ["201": ["description": "created", "content": ["application/json": ["schema": item]]],
                          "4XX": ["description": "rejected"]],
        ]]
    }
    let tag: JSONValue = ["type": "object", "required": ["name"], "properties": ["name": ["type": "string", "maxLength": 40],
                                                                              "weight": ["type": "number"]]]
    let document: JSONValue = [
        "openapi": "3.1.0", "info": ["title": "bench", "version": "1"], "servers": [["url": "https://api.example.com/v1"]],
        "paths": .object(paths),
        "components": ["schemas": [
            "Tag": tag,
            "NewItem": ["type": "object", "required": ["name"], "additionalProperties": false,
                        "properties": ["name": ["type": "string", "minLength": 1], "price": ["type": "number", "minimum": 0],
                                       "tags": ["type": "array", "items": ["$ref": "#/components/schemas/Tag"]]]],
            "Item": ["type": "object", "required": ["id", "name", "created"],
                     "properties": ["id": ["type": "integer"], "name": ["type": "string", "minLength": 1],
                                    "price": ["type": "number", "minimum": 0],
                                    "tags": ["type": "array", "items": ["$ref": "#/components/schemas/Tag"]],
                                    "created": ["type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}"],
                                    "status": ["enum": ["active", "retired"]],
                                    "owner": ["type": ["object", "null"], "properties": ["id": ["type": "integer"]]]]],
        ]],
    ]
    return document.encoded
}

func interactions(count: Int, resources: Int) -> [Interaction] {
    (0..<count).map { index in
        let resource = index % resources
        let tags = (0..<(index % 4)).map { #"{"name":"tag\#($0)","weight":\#(Double($0) / 2)}"# }.joined(separator: ",")
        let item = #"{"id":\#(index + 1),"name":"item \#(index)","price":\#(index % 100).5,"tags":[\#(tags)],"created":"2026-11-23T10:00:00Z","status":"active","owner":{"id":7}}"#
        if index % 2 == 0 {
            return Interaction(
                request: .init(method: "GET", url: "https://api.example.com/v1/resources\(resource)/\(index + 1)?fields=name&fields=price"),
                outcome: .response(.init(statusCode: 200, headers: ["Content-Type": "application/json"], body: CassetteBody(Data(item.utf8)))))
        }
        return Interaction(
            request: .init(method: "POST", url: "https://api.example.com/v1/resources\(resource)", headers: ["Content-Type": "application/json"],
                           body: CassetteBody(Data(#"{"name":"item \#(index)","price":\#(index % 100).5,"tags":[\#(tags)]}"#.utf8))),
            outcome: .response(.init(statusCode: 201, headers: ["Content-Type": "application/json"], body: CassetteBody(Data(item.utf8)))))
    }
}

let contract = try OpenAPIConformance(document: document(resources: 50), source: "bench")
precondition(contract.operationCount == 100)
if mockMode {
    try await MockBenchmark(contract: contract, requests: arguments.first ?? 2_000, pairs: arguments.dropFirst().first ?? 9).run()
    exit(0)
}
let exchanges = interactions(count: interactionCount, resources: 50)
let failing = exchanges.prefix(200).filter { !contract.check($0).violations.isEmpty }
if let first = failing.first {
    print("error: the benchmark's interactions must conform:", contract.check(first).violations.map(\.description))
    exit(1)
}

var rates: [Double] = []
for _ in 0..<rounds {
    let start = ContinuousClock.now
    var violations = 0
    for exchange in exchanges { violations += contract.check(exchange).violations.count }
    let elapsed = ContinuousClock.now - start
    precondition(violations == 0)
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    rates.append(Double(exchanges.count) / seconds)
}
rates.sort()
print(String(format: "conformance: %d interactions x %d rounds against 100 operations: median %.0f/s (min %.0f, max %.0f) on one thread",
             interactionCount, rounds, rates[rates.count / 2], rates[0], rates[rates.count - 1]))
