import Foundation
import TapedeckCore

/// Why a stub definition was refused: where in the JSON, and what is wrong there.
public struct StubDefinitionError: Error, CustomStringConvertible, Equatable, Sendable {
    /// Where, e.g. `stubs[2].request.query.page` (`$` for the whole document).
    public var location: String
    /// What is wrong.
    public var reason: String
    public var description: String { "invalid stub definition at \(location): \(reason)" }
}

extension StubDefinition {
    /// Decodes one definition, an array of them, or `{"stubs": [...]}`.
    public static func decodeList(_ data: Data) throws(StubDefinitionError) -> [StubDefinition] {
        struct Wrapped: Decodable { var stubs: [StubDefinition] }
        let decoder = JSONDecoder()
        do {
            let trimmed = data.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
            if trimmed.first == UInt8(ascii: "[") { return try decoder.decode([StubDefinition].self, from: data) }
            if let json = JSONValue(parsing: data), json.value(at: ["stubs"]) != nil {
                return try decoder.decode(Wrapped.self, from: data).stubs
            }
            return [try decoder.decode(StubDefinition.self, from: data)]
        } catch let error as DecodingError {
            throw Self.describe(error)
        } catch {
            throw StubDefinitionError(location: "$", reason: "\(error)")
        }
    }

    /// Decodes one definition.
    public static func decode(_ data: Data) throws(StubDefinitionError) -> StubDefinition {
        do {
            return try JSONDecoder().decode(StubDefinition.self, from: data)
        } catch let error as DecodingError {
            throw Self.describe(error)
        } catch {
            throw StubDefinitionError(location: "$", reason: "\(error)")
        }
    }

    static func describe(_ error: DecodingError) -> StubDefinitionError {
        func location(_ path: [any CodingKey]) -> String {
            path.isEmpty ? "$" : path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
                .trimmingCharacters(in: CharacterSet(charactersIn: "."))
        }
        switch error {
        case .keyNotFound(let key, let context):
            return .init(location: location(context.codingPath + [key]), reason: "required field \"\(key.stringValue)\" is missing")
        case .typeMismatch(let type, let context):
            return .init(location: location(context.codingPath), reason: "expected \(Self.typeName(type))")
        case .valueNotFound(let type, let context):
            return .init(location: location(context.codingPath), reason: "expected \(Self.typeName(type)), found null")
        case .dataCorrupted(let context):
            let underlying = (context.underlyingError as NSError?)?.userInfo["NSDebugDescription"] as? String
            return .init(location: location(context.codingPath), reason: underlying ?? context.debugDescription)
        @unknown default:
            return .init(location: "$", reason: "\(error)")
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type, is UInt64.Type, is Double.Type: return "a number"
        case is Bool.Type: return "true or false"
        default:
            if String(describing: type).hasPrefix("Dictionary") { return "an object" }
            return type is any Collection.Type ? "an array" : "an object"
        }
    }

    /// The stub this definition describes; throws naming the first field that is wrong (`location` relative to the
    /// definition, prefixed by `at`).
    public func makeStub(at location: String = "$") throws(StubDefinitionError) -> Stub {
        func fail(_ field: String, _ reason: String) -> StubDefinitionError {
            StubDefinitionError(location: location == "$" ? field : "\(location).\(field)", reason: reason)
        }
        let matcher = try request.makeMatcher(fail)
        guard let response else { throw fail("response", "required field \"response\" is missing") }
        let responder = try response.makeResponder(fail)
        var stub = Stub(id: id ?? UUID().uuidString, name: name, matcher, priority: priority ?? Stub.defaultPriority, responder: responder)
        if let delay { stub.delay = try delay.makeDelay(fail) }
        if let scenario {
            guard !scenario.name.isEmpty else { throw fail("scenario.name", "must not be empty") }
            stub.scenario = ScenarioStep(scenario.name, requiredState: scenario.requiredState, newState: scenario.newState)
        }
        return stub
    }
}

typealias DefinitionFailure = (String, String) -> StubDefinitionError

extension StubDefinition.RequestDefinition {
    func makeMatcher(_ fail: DefinitionFailure) throws(StubDefinitionError) -> RequestPattern {
        var matcher = RequestPattern(method.map { HTTPMethod($0.uppercased()) })
        let given = [("path", path), ("pathTemplate", pathTemplate), ("pathRegex", pathRegex)].filter { $0.1 != nil }
        if given.count > 1 { throw fail("request", "give at most one of path, pathTemplate and pathRegex, not \(given.map(\.0).joined(separator: " and "))") }
        if let path {
            guard path.hasPrefix("/") else { throw fail("request.path", "must start with \"/\", got \"\(path)\"") }
            matcher.path = .exact(path)
        }
        if let pathTemplate {
            guard pathTemplate.hasPrefix("/") else { throw fail("request.pathTemplate", "must start with \"/\", got \"\(pathTemplate)\"") }
            matcher.path = .template(pathTemplate)
        }
        if let pathRegex {
            do { matcher.path = .regex(try StubRegex(pathRegex)) } catch { throw fail("request.pathRegex", error.description) }
        }
        for (name, value) in query ?? [:] { matcher.query[name] = try value.makePattern { fail("request.query.\(name)", $0) } }
        for (name, value) in headers ?? [:] { matcher.headers[name] = try value.makePattern { fail("request.headers.\(name)", $0) } }
        if let body { matcher.body = try body.makePattern(fail) }
        return matcher
    }
}

extension StubDefinition.ValueDefinition {
    func makePattern(_ fail: (String) -> StubDefinitionError) throws(StubDefinitionError) -> ValuePattern {
        var found: [ValuePattern] = []
        if let equalTo { found.append(.equalTo(equalTo)) }
        if let contains { found.append(.contains(contains)) }
        if let matches {
            do { found.append(.matches(try StubRegex(matches))) } catch { throw fail(error.description) }
        }
        if present == true { found.append(.present) }
        if absent == true { found.append(.absent) }
        guard found.count == 1 else {
            throw fail(found.isEmpty ? "give one of equalTo, contains, matches, present: true, absent: true (or a plain string)"
                                     : "give only one of equalTo, contains, matches, present, absent")
        }
        return found[0]
    }
}

extension StubDefinition.BodyDefinition {
    func makePattern(_ fail: DefinitionFailure) throws(StubDefinitionError) -> BodyPattern {
        var found: [BodyPattern] = []
        if let equalTo { found.append(.text(equalTo)) }
        if let base64 {
            guard let data = Data(base64Encoded: base64) else { throw fail("request.body.base64", "is not valid base64") }
            found.append(.equalTo(data))
        }
        if let contains { found.append(.contains(contains)) }
        if let matches {
            do { found.append(.matches(try StubRegex(matches))) } catch { throw fail("request.body.matches", error.description) }
        }
        if let json { found.append(.json(json)) }
        if let jsonPartial { found.append(.jsonPartial(jsonPartial)) }
        if let form {
            var fields: [String: ValuePattern] = [:]
            for (name, value) in form { fields[name] = try value.makePattern { fail("request.body.form.\(name)", $0) } }
            found.append(.form(fields))
        }
        if let multipart {
            var parts: [MultipartPartPattern] = []
            for (index, part) in multipart.enumerated() {
                let at = "request.body.multipart[\(index)]"
                parts.append(MultipartPartPattern(
                    name: part.name,
                    fileName: try part.fileName.map { value throws(StubDefinitionError) in try value.makePattern { fail("\(at).fileName", $0) } },
                    contentType: try part.contentType.map { value throws(StubDefinitionError) in try value.makePattern { fail("\(at).contentType", $0) } },
                    body: try part.body.map { value throws(StubDefinitionError) in try value.makePattern { fail("\(at).body", $0) } }))
            }
            found.append(.multipart(parts))
        }
        guard found.count == 1 else {
            throw fail("request.body", found.isEmpty
                ? "give one of equalTo, base64, contains, matches, json, jsonPartial, form, multipart"
                : "give only one of equalTo, base64, contains, matches, json, jsonPartial, form, multipart")
        }
        return found[0]
    }
}

extension StubDefinition.DelayDefinition {
    func makeDelay(_ fail: DefinitionFailure) throws(StubDefinitionError) -> StubDelay {
        if let milliseconds {
            guard minMilliseconds == nil, maxMilliseconds == nil else {
                throw fail("delay", "give either milliseconds or minMilliseconds and maxMilliseconds, not both")
            }
            guard milliseconds >= 0 else { throw fail("delay.milliseconds", "must not be negative, got \(milliseconds)") }
            return .fixed(.milliseconds(milliseconds))
        }
        guard let low = minMilliseconds, let high = maxMilliseconds else {
            throw fail("delay", "give milliseconds, or both minMilliseconds and maxMilliseconds")
        }
        guard 0 <= low, low <= high else { throw fail("delay", "needs 0 ≤ minMilliseconds ≤ maxMilliseconds, got \(low) and \(high)") }
        return .random(.milliseconds(low)...(.milliseconds(high)), seed: seed ?? 0)
    }
}
