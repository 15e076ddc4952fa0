import Foundation
import OpenAPIKit
import TapedeckCore

/// Reads every operation of an OpenAPI document into ``OperationRules``, resolving `$ref`s to components and
/// compiling every schema into one ``SchemaProgram`` (a component schema used by many operations compiles once).
struct OperationRulesBuilder {
    private let document: OpenAPI.Document
    private let source: String
    private var compiler: SchemaCompiler
    private let encoder = JSONEncoder()

    init(document: OpenAPI.Document, source: String) throws(OpenAPIDocumentError) {
        self.document = document
        self.source = source
        let components: JSONValue
        do {
            components = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(document.components))
        } catch {
            throw OpenAPIDocumentError(source: source, reason: "its components cannot be read: \(error)")
        }
        compiler = SchemaCompiler(root: ["components": components])
    }

    /// The rules of every operation, and the program their schema indices point into.
    mutating func build() throws(OpenAPIDocumentError) -> (operations: [OperationRules], program: SchemaProgram) {
        var operations: [OperationRules] = []
        for (path, maybePathItem) in document.paths {
            let place = "paths.\(path.rawValue)"
            let pathItem = try resolve(maybePathItem, at: place)
            let shared = try pathItem.parameters.map { parameter throws(OpenAPIDocumentError) in try self.parameter(parameter, at: place) }
            for endpoint in pathItem.endpoints {
                let method = endpoint.method.rawValue.uppercased()
                let operationPlace = "\(place).\(endpoint.method.rawValue.lowercased())"
                let operation = endpoint.operation
                var parameters = shared
                for parameter in operation.parameters {
                    let rule = try self.parameter(parameter, at: operationPlace)
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
                    let responsePlace = "\(operationPlace).responses.\(status.rawValue)"
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
        let parameter = try resolve(maybe, at: "\(place).parameters")
        let location: ParameterLocation
        switch parameter.location {
        case .path: location = .path
        case .query, .querystring: location = .query
        case .header: location = .header
        case .cookie: location = .cookie
        }
        let parameterPlace = "\(place).parameters.\(parameter.name)"
        switch parameter.schemaOrContent {
        case .a(let context):
            let separator: Character
            switch context.style {
            case .spaceDelimited: separator = " "
            case .pipeDelimited: separator = "|"
            default: separator = ","
            }
            return ParameterRule(name: parameter.name, location: location, required: parameter.required,
                                 schema: try compile(context.schema, at: parameterPlace),
                                 exploded: context.style == .form && context.explode, separator: separator)
        case .b(let content):
            let schema = try mediaTypes(content, at: parameterPlace).first?.schema
            return ParameterRule(name: parameter.name, location: location, required: parameter.required, schema: schema,
                                 exploded: false, separator: ",")
        }
    }

    private mutating func response(_ response: OpenAPI.Response, at place: String) throws(OpenAPIDocumentError) -> ResponseRule {
        var headers: [ParameterRule] = []
        for (name, maybeHeader) in response.headers ?? [:] {
            let header = try resolve(maybeHeader, at: "\(place).headers.\(name)")
            let schema: Int?
            switch header.schemaOrContent {
            case .a(let context): schema = try compile(context.schema, at: "\(place).headers.\(name)")
            case .b(let content): schema = try mediaTypes(content, at: "\(place).headers.\(name)").first?.schema
            }
            headers.append(ParameterRule(name: name, location: .header, required: header.required, schema: schema,
                                         exploded: false, separator: ","))
        }
        return ResponseRule(headers: headers, content: BodyRule(required: false, mediaTypes: try mediaTypes(response.content, at: place)))
    }

    private mutating func mediaTypes(_ content: OpenAPI.Content.Map, at place: String) throws(OpenAPIDocumentError) -> [MediaTypeRule] {
        var rules: [MediaTypeRule] = []
        for (contentType, maybeContent) in content {
            let range = contentType.typeAndSubtype.lowercased()
            let entry = try resolve(maybeContent, at: "\(place).content.\(range)")
            let schema = try entry.schema.map { schema throws(OpenAPIDocumentError) in try compile(schema, at: "\(place).content.\(range)") }
            rules.append(MediaTypeRule(range: range, schema: schema))
        }
        return rules
    }

    /// Compiles a schema (or a reference to one) found at `place`.
    private mutating func compile(_ schema: some Encodable, at place: String) throws(OpenAPIDocumentError) -> Int {
        let json: JSONValue
        do {
            json = try JSONDecoder().decode(JSONValue.self, from: encoder.encode(schema))
        } catch {
            throw OpenAPIDocumentError(source: source, reason: "the schema at \(place) cannot be read: \(error)")
        }
        do {
            return try compiler.compile(json, at: "")
        } catch {
            throw OpenAPIDocumentError(source: source, reason: "the schema at \(place): \(error)")
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
