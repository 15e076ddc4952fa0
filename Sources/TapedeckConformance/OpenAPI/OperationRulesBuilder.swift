import Foundation
import OpenAPIKit
import TapedeckCore

/// Reads every operation of an OpenAPI document into ``OperationRules``, resolving `$ref`s to components and
/// compiling every schema into one ``SchemaProgram`` (a component schema used by many operations compiles once).
struct OperationRulesBuilder {
    private let document: OpenAPI.Document
    private let source: String
    private var compiler: SchemaCompiler
    /// What `$ref`s point into: `{"components": …}`.
    let schemaRoot: JSONValue

    init(document: OpenAPI.Document, source: String) throws(OpenAPIDocumentError) {
        self.document = document
        self.source = source
        schemaRoot = ["components": try Self.json(document.components, at: "$.components", source: source)]
        compiler = SchemaCompiler(root: schemaRoot)
    }

    /// The rules of every operation, and the program their schema indices point into.
    mutating func build() throws(OpenAPIDocumentError) -> (operations: [OperationRules], program: SchemaProgram) {
        var operations: [OperationRules] = []
        for (path, maybePathItem) in document.paths {
            let place = JSONPath.member(path.rawValue, of: "$.paths")
            let pathItem = try resolve(maybePathItem, at: place)
            let shared = try pathItem.parameters.enumerated().map { item throws(OpenAPIDocumentError) in
                try self.parameter(item.element, at: "\(place).parameters[\(item.offset)]")
            }
            for endpoint in pathItem.endpoints {
                let method = endpoint.method.rawValue.uppercased()
                let operationPlace = JSONPath.member(endpoint.method.rawValue.lowercased(), of: place)
                let operation = endpoint.operation
                var parameters = shared
                for (index, parameter) in operation.parameters.enumerated() {
                    let rule = try self.parameter(parameter, at: "\(operationPlace).parameters[\(index)]")
                    parameters.removeAll { $0.name == rule.name && $0.location == rule.location }
                    parameters.append(rule)
                }
                let requestBody = try operation.requestBody.map { body throws(OpenAPIDocumentError) in
                    let request = try resolve(body, at: "\(operationPlace).requestBody")
                    return BodyRule(required: request.required,
                                    mediaTypes: try mediaTypes(request.content, at: "\(operationPlace).requestBody"))
                }
                var responses: [ResponseKey: ResponseRule] = [:]
                for (status, maybeResponse) in operation.responses {
                    let responsePlace = JSONPath.member(status.rawValue, of: "\(operationPlace).responses")
                    responses[key(status)] = try response(try resolve(maybeResponse, at: responsePlace), at: responsePlace)
                }
                operations.append(OperationRules(
                    method: method, path: PathTemplate(path.rawValue),
                    label: operation.operationId ?? "\(method) \(path.rawValue)",
                    parameters: parameters, requestBody: requestBody, responses: responses))
            }
        }
        return (operations, compiler.program)
    }

    private func key(_ status: OpenAPI.Response.StatusCode) -> ResponseKey {
        switch status.value {
        case .default: return .default
        case .status(let code): return .status(code)
        case .range(let range): return .range(Int(range.rawValue.prefix(1)) ?? 0)
        }
    }

    private mutating func parameter(
        _ maybe: Either<OpenAPI.Reference<OpenAPI.Parameter>, OpenAPI.Parameter>, at place: String
    ) throws(OpenAPIDocumentError) -> ParameterRule {
        let parameter = try resolve(maybe, at: place)
        let location: ParameterLocation
        switch parameter.location {
        case .path: location = .path
        case .query, .querystring: location = .query
        case .header: location = .header
        case .cookie: location = .cookie
        }
        switch parameter.schemaOrContent {
        case .a(let context):
            let separator: Character
            switch context.style {
            case .spaceDelimited: separator = " "
            case .pipeDelimited: separator = "|"
            default: separator = ","
            }
            let (schema, source) = try compile(context.schema, at: "\(place).schema")
            return ParameterRule(name: parameter.name, location: location, required: parameter.required,
                                 schema: schema, schemaSource: source,
                                 exploded: context.style == .form && context.explode, separator: separator)
        case .b(let content):
            let media = try mediaTypes(content, at: place).first
            return ParameterRule(name: parameter.name, location: location, required: parameter.required,
                                 schema: media?.schema, schemaSource: media?.schemaSource, exploded: false, separator: ",")
        }
    }

    private mutating func response(_ response: OpenAPI.Response, at place: String) throws(OpenAPIDocumentError) -> ResponseRule {
        var headers: [ParameterRule] = []
        for (name, maybeHeader) in response.headers ?? [:] {
            let headerPlace = JSONPath.member(name, of: "\(place).headers")
            let header = try resolve(maybeHeader, at: headerPlace)
            let schema: (index: Int, source: JSONValue)?
            switch header.schemaOrContent {
            case .a(let context): schema = try compile(context.schema, at: "\(headerPlace).schema")
            case .b(let content):
                schema = try mediaTypes(content, at: headerPlace).first.flatMap { media in
                    media.schema.flatMap { index in media.schemaSource.map { (index, $0) } }
                }
            }
            headers.append(ParameterRule(name: name, location: .header, required: header.required, schema: schema?.index,
                                         schemaSource: schema?.source, exploded: false, separator: ","))
        }
        return ResponseRule(headers: headers, content: BodyRule(required: false, mediaTypes: try mediaTypes(response.content, at: place)))
    }

    private mutating func mediaTypes(_ content: OpenAPI.Content.Map, at place: String) throws(OpenAPIDocumentError) -> [MediaTypeRule] {
        var rules: [MediaTypeRule] = []
        for (contentType, maybeContent) in content {
            let range = contentType.typeAndSubtype.lowercased()
            let entryPlace = JSONPath.member(contentType.rawValue, of: "\(place).content")
            let entry = try resolve(maybeContent, at: entryPlace)
            let schema = try entry.schema.map { schema throws(OpenAPIDocumentError) in try compile(schema, at: "\(entryPlace).schema") }
            rules.append(MediaTypeRule(range: range, schema: schema?.index, schemaSource: schema?.source,
                                       examples: try examples(of: entry, at: entryPlace)))
        }
        return rules
    }

    /// Compiles a schema (or a reference to one) found at `place`; returns its index and its JSON as written.
    private mutating func compile(_ schema: some Encodable, at place: String) throws(OpenAPIDocumentError) -> (index: Int, source: JSONValue) {
        let json = try self.json(schema, at: place)
        do {
            return (try compiler.compile(json, at: ""), json)
        } catch {
            throw OpenAPIDocumentError(source: source, reason: "the schema at \(place): \(error)")
        }
    }

    /// A media type's `example` and `examples` (`value`, or 3.2's `dataValue`; references into `components.examples`
    /// resolved; an example given only as an `externalValue` or `serializedValue` has no value here and is left out).
    private func examples(of content: OpenAPI.Content, at place: String) throws(OpenAPIDocumentError) -> [(name: String, value: JSONValue)] {
        var found: [(name: String, value: JSONValue)] = []
        // OpenAPIKit fills `example` from the first of `examples` too; the document's own `example` is the one
        // given without `examples` (which is how OpenAPIKit writes it back).
        if content.examples == nil, let example = content.example { found.append(("", try json(example, at: "\(place).example"))) }
        for (name, maybeExample) in content.examples ?? [:] {
            let examplePlace = JSONPath.member(name, of: "\(place).examples")
            let example = try resolve(maybeExample, at: examplePlace)
            if let value = example.dataOrLegacyValue { found.append((name, try json(value, at: "\(examplePlace).value"))) }
        }
        return found
    }

    /// Part of the document as JSON, built by ``JSONValueEncoder`` (`JSONEncoder`'s text, parsed back, took a fifth
    /// of start-up; `JSONDecoder` would decode `JSONValue` by probing each value's type with thrown errors).
    private func json(_ part: some Encodable, at place: String) throws(OpenAPIDocumentError) -> JSONValue {
        try Self.json(part, at: place, source: source)
    }

    private static func json(_ part: some Encodable, at place: String, source: String) throws(OpenAPIDocumentError) -> JSONValue {
        do {
            return try JSONValueEncoder.encode(part)
        } catch let EncodingError.invalidValue(_, context) {
            // A value JSON has no spelling for (YAML's `.inf`, `.nan`), placed where it is below `place`.
            let at = context.codingPath.reduce(place) { at, key in key.intValue.map { "\(at)[\($0)]" } ?? JSONPath.member(key.stringValue, of: at) }
            throw OpenAPIDocumentError(source: source, reason: "a value JSON cannot hold: \(context.debugDescription) (at \(at))")
        } catch {
            throw OpenAPIDocumentError(source: source, reason: "\(place) cannot be read: \(error)")
        }
    }

    private func resolve<Component>(
        _ maybe: Either<OpenAPI.Reference<Component>, Component>, at place: String
    ) throws(OpenAPIDocumentError) -> Component where Component: ComponentDictionaryLocatable {
        do { return try document.components.lookup(maybe) } catch {
            throw OpenAPIDocumentError(source: source, reason: "\(place): \(error)")
        }
    }
}
