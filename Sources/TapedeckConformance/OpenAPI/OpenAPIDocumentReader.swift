import Foundation
import OpenAPIKit
import OpenAPIKit30
import OpenAPIKitCompat
import Yams

/// Reads an OpenAPI 3.0 or 3.1 document, JSON or YAML, with OpenAPIKit; a 3.0 document is converted to OpenAPIKit's
/// 3.1 model so the rest of the checker knows one model.
enum OpenAPIDocumentReader {
    static func read(_ data: Data, source: String) throws(OpenAPIDocumentError) -> OpenAPIKit.OpenAPI.Document {
        let isJSON = data.first(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }) == UInt8(ascii: "{")
        let version: String
        do {
            version = try decode(VersionProbe.self, from: data, isJSON: isJSON).openapi
        } catch {
            throw OpenAPIDocumentError(source: source, reason: "not an OpenAPI document: no top-level 'openapi' version string (\(Self.describe(error)))")
        }
        do {
            if version.hasPrefix("3.0") {
                let document = try decode(OpenAPIKit30.OpenAPI.Document.self, from: data, isJSON: isJSON)
                return document.convert(to: .v3_1_1)
            }
            guard version.hasPrefix("3.1") || version.hasPrefix("3.2") else {
                throw OpenAPIDocumentError(source: source, reason: "OpenAPI \(version) is not supported (3.0 and 3.1 are)")
            }
            return try decode(OpenAPIKit.OpenAPI.Document.self, from: data, isJSON: isJSON)
        } catch let error as OpenAPIDocumentError {
            throw error
        } catch {
            throw OpenAPIDocumentError(source: source, reason: describe(error))
        }
    }

    private struct VersionProbe: Decodable {
        var openapi: String
    }

    private static func decode<Value: Decodable>(_ type: Value.Type, from data: Data, isJSON: Bool) throws -> Value {
        if isJSON { return try JSONDecoder().decode(type, from: data) }
        return try YAMLDecoder().decode(type, from: data)
    }

    /// OpenAPIKit's account of a decoding error (what and where), or the error's own text.
    private static func describe(_ error: any Error) -> String {
        let openAPIError = OpenAPIKit.OpenAPI.Error(from: error)
        let place = openAPIError.codingPathString
        return place.isEmpty ? openAPIError.localizedDescription : "\(openAPIError.localizedDescription) (at \(place))"
    }
}
