import Foundation
import OpenAPIKit
import OpenAPIKit30
import OpenAPIKitCompat
import TapedeckCassette
import TapedeckCore
import TapedeckYAML
import Yams

/// Reads an OpenAPI 3.0 or 3.1 document, JSON or YAML, with OpenAPIKit; a 3.0 document is converted to OpenAPIKit's
/// 3.1 model so the rest of the checker knows one model.
///
/// YAML is composed once within `YAMLDocument`'s limits (size, nesting, an alias expansion budget), so an alias bomb
/// is refused at its line instead of decoded for ever; JSON is held to the same size and nesting. Syntax errors name
/// the line and column.
enum OpenAPIDocumentReader {
    /// The limits on a document, JSON or YAML.
    static let limits = YAMLDocument.Limits.standard

    static func read(_ data: Data, source: String) throws(OpenAPIDocumentError) -> OpenAPIKit.OpenAPI.Document {
        let input = try self.input(data, source: source)
        let version: String
        do {
            version = try decode(VersionProbe.self, from: input).openapi
        } catch {
            throw OpenAPIDocumentError(source: source, reason: "not an OpenAPI document: no top-level 'openapi' version string (\(Self.describe(error, at: "$")))")
        }
        do {
            if version.hasPrefix("3.0") {
                let document = try decode(OpenAPIKit30.OpenAPI.Document.self, from: input, pathItem: OpenAPIKit30.OpenAPI.PathItem.Map.Value.self)
                return document.convert(to: .v3_1_1)
            }
            guard version.hasPrefix("3.1") || version.hasPrefix("3.2") else {
                throw OpenAPIDocumentError(source: source, reason: "OpenAPI \(Shown.truncated(version, limit: 60)) is not supported (3.0 and 3.1 are) (at $.openapi)")
            }
            return try decode(OpenAPIKit.OpenAPI.Document.self, from: input, pathItem: OpenAPIKit.OpenAPI.PathItem.Map.Value.self)
        } catch let error as OpenAPIDocumentError {
            throw error
        } catch {
            throw OpenAPIDocumentError(source: source, reason: describe(error))
        }
    }

    /// A document ready to decode: its ``DocumentNode`` tree, and for JSON its bytes, for `JSONDecoder`.
    private enum Input {
        case json(Data, DocumentNode)
        case yaml(DocumentNode)
    }

    private static func input(_ data: Data, source: String) throws(OpenAPIDocumentError) -> Input {
        let start = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data[...]
        let isJSON = start.first(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }) == UInt8(ascii: "{")
        do throws(YAMLDocumentError) {
            if isJSON {
                try JSONNesting.check(start, limits: limits)
                // Bytes that are not UTF-8 (RFC 8259 requires it), and text the strict reader refuses, are refused
                // here with their place: `JSONDecoder` read some of both (a byte 0xFF, a raw control character in a
                // string) into errors whose coding paths OpenAPIKit does not expect, and OpenAPIKit trapped (found by
                // the openapi-document fuzz target).
                _ = try UTF8Position.text(start, rule: "JSON must be UTF-8")
                let json = Data(start)
                do {
                    return .json(json, DocumentNode(json: try CassetteJSON.parse(json)))
                } catch {
                    throw YAMLDocumentError(line: nil, column: nil, message: "not valid JSON: Invalid JSON at line \(error.line), "
                                            + "column \(error.column) (byte \(error.offset)): \(error.reason).")
                }
            }
            return .yaml(try DocumentNode.yaml(YAMLDocument.text(start), limits: limits))
        } catch {
            throw OpenAPIDocumentError(source: source, reason: error.description)
        }
    }

    private struct VersionProbe: Decodable {
        var openapi: String
    }

    /// `type` decoded from the document; for a whole document, its path items (decoded as `PathItem`) are decoded
    /// on two threads (``DecodedAhead``).
    private static func decode<Value: Decodable, PathItem: Decodable>(
        _ type: Value.Type, from input: Input, pathItem: PathItem.Type = Never.self
    ) throws -> Value {
        // The tree decoder decodes what JSONDecoder and YAMLDecoder decode, many times faster (see DocumentNode).
        // YAML is decoded by it alone: YAMLDecoder would decode every alias expanded (far past the time a document's
        // text is worth), and some of its errors reach OpenAPIKit's error handling with coding paths it traps on.
        // JSON is decoded again by JSONDecoder on any error, so that a failure reads as it always has, unless
        // JSONDecoder's names no place and the tree decoder's does: a server URL template's parse error (which
        // OpenAPIKit throws with no coding path), or JSONDecoder's bare "not valid JSON".
        func decodeTree(_ tree: DocumentNode) throws -> Value {
            guard pathItem != Never.self else { return try DocumentDecoder.decode(type, from: tree) }
            return try DocumentDecoder.decode(type, from: tree, decodingAhead: "paths", as: pathItem)
        }
        switch input {
        case .yaml(let tree):
            return try decodeTree(tree)
        case .json(let data, let tree):
            let treeError: any Error
            do { return try decodeTree(tree) } catch { treeError = error }
            do { return try JSONDecoder().decode(type, from: data) } catch {
                if !isPlaced(error), isPlaced(treeError) { throw treeError }
                throw error
            }
        }
    }

    /// Whether OpenAPIKit's account of `error` has a coding path.
    private static func isPlaced(_ error: any Error) -> Bool {
        !OpenAPIKit.OpenAPI.Error(from: error).codingPath.isEmpty
    }

    /// OpenAPIKit's account of a decoding error (what and where), or the error's own text. The place is a JSONPath
    /// (`$.paths['/pets'].get.responses`); an error OpenAPIKit gives no coding path for is placed at `root`, when given.
    private static func describe(_ error: any Error, at root: String? = nil) -> String {
        let openAPIError = OpenAPIKit.OpenAPI.Error(from: error)
        let path = openAPIError.codingPathString
        // An error OpenAPIKit has no account of (a server URL template's parse error, thrown as it is) would read
        // "The operation could not be completed (… error 0.)"; its own description says what was wrong.
        let known = error is DecodingError || error is any OpenAPIKit.OpenAPIError
        let text = Shown.truncated(known ? openAPIError.localizedDescription : String(describing: error), limit: 300)
        // OpenAPIKit gives no coding path for a problem in the document's own members ("… in the root Document
        // object"): that place is the root.
        let root = root ?? (text.contains("in the root Document object") ? "$" : nil)
        guard let place = path.isEmpty ? root : "$" + (path.hasPrefix(".") || path.hasPrefix("[") ? path : "." + path) else { return text }
        return "\(text) (at \(place))"
    }
}

/// How deep a JSON text nests, found with one pass over its bytes (strings skipped), so a document nested
/// deeper than the limit is refused before a recursive decoder sees it.
enum JSONNesting {
    static func check(_ bytes: some Collection<UInt8>, limits: YAMLDocument.Limits) throws(YAMLDocumentError) {
        guard bytes.count <= limits.maximumBytes else {
            throw YAMLDocumentError(line: nil, column: nil,
                                    message: "the document has \(bytes.count) bytes, more than the \(limits.maximumBytes) a document may have")
        }
        // Over contiguous memory (a document's Data), so the pass costs nothing next to decoding the document.
        let problem = bytes.withContiguousStorageIfAvailable { tooDeep($0, limits: limits) }
            ?? ContiguousArray(bytes).withUnsafeBufferPointer { tooDeep($0, limits: limits) }
        if let problem { throw problem }
    }

    /// Where `bytes` first nest deeper than the limit, or `nil`.
    private static func tooDeep(_ bytes: UnsafeBufferPointer<UInt8>, limits: YAMLDocument.Limits) -> YAMLDocumentError? {
        var depth = 0
        var inString = false
        var escaped = false
        var line = 1
        var column = 0
        for byte in bytes {
            column += 1
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                guard depth <= limits.maximumDepth else {
                    return YAMLDocumentError(line: line, column: column, message: "objects and arrays nest deeper than \(limits.maximumDepth) levels")
                }
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            case UInt8(ascii: "\n"): line += 1; column = 0
            default: break
            }
        }
        return nil
    }
}
