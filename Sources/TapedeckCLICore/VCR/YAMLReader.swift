import Foundation
import TapedeckCore
import TapedeckYAML
import Yams

/// Typed reads of a composed YAML tree (Yams `Node`s, resolved with no implicit tags, so every scalar is read as
/// written; `<<` merges are taken in) that fail with a ``VCRImportError`` naming the file, the node's line and
/// column, and its path.
struct YAMLReader {
    let file: String

    /// An error at `node`, or, for a node that is missing, at the mapping it is missing from.
    func fail(_ node: Node?, _ path: @autoclosure () -> String, _ message: String, in parent: Node.Mapping? = nil) -> VCRImportError {
        let mark = node?.mark ?? parent?.mark
        return VCRImportError(file: file, line: mark?.line, column: mark?.column, path: path(), message: message)
    }

    /// The value of `key` in a mapping (keys compared as written).
    static func value(_ mapping: Node.Mapping, _ key: String) -> Node? {
        for pair in mapping where pair.key.scalar?.string == key { return pair.value }
        return nil
    }

    /// Whether `node` is absent or a plain `null`, `~` or empty scalar.
    static func isNull(_ node: Node?) -> Bool {
        guard let node else { return true }
        guard let scalar = node.scalar, scalar.style == .plain else { return false }
        return scalar.string.isEmpty || scalar.string == "null" || scalar.string == "~" || scalar.string == "Null" || scalar.string == "NULL"
    }

    /// A mapping with its `<<` merges taken in, as PyYAML (vcrpy) reads one (``YAMLMerge``).
    func mapping(_ node: Node?, _ path: @autoclosure () -> String, in parent: Node.Mapping? = nil) throws(VCRImportError) -> Node.Mapping {
        guard let mapping = node?.mapping else {
            throw fail(node, path(), node == nil ? "missing" : "expected a mapping", in: parent)
        }
        do throws(YAMLDocumentError) {
            return try YAMLMerge.merged(mapping)
        } catch {
            throw VCRImportError(file: file, line: error.line, column: error.column, path: path(), message: error.message)
        }
    }

    func sequence(_ node: Node?, _ path: @autoclosure () -> String) throws(VCRImportError) -> Node.Sequence {
        guard let sequence = node?.sequence else { throw fail(node, path(), node == nil ? "missing" : "expected a list") }
        return sequence
    }

    func string(_ node: Node?, _ path: @autoclosure () -> String, in parent: Node.Mapping? = nil) throws(VCRImportError) -> String {
        guard let scalar = node?.scalar, !Self.isNull(node) else {
            throw fail(node, path(), node == nil || Self.isNull(node) ? "missing" : "expected a string", in: parent)
        }
        return scalar.string
    }

    func integer(_ node: Node?, _ path: @autoclosure () -> String, in parent: Node.Mapping? = nil) throws(VCRImportError) -> Int {
        let text = try string(node, path(), in: parent)
        guard let value = Int(text) else { throw fail(node, path(), "expected an integer, found '\(text)'") }
        return value
    }

    /// Whether a scalar is tagged binary: `!!binary` (vcrpy, YAML 1.1) or `!binary` (Ruby's Psych).
    static func isBinary(_ scalar: Node.Scalar) -> Bool {
        let tag = scalar.tag.description
        return tag == "tag:yaml.org,2002:binary" || tag == "!binary" || tag == "!!binary"
    }

    /// The bytes of a scalar: base64-decoded when tagged binary (or `base64` is set), else its UTF-8 text.
    func bytes(_ node: Node?, _ path: @autoclosure () -> String, base64: Bool = false) throws(VCRImportError) -> Data {
        if Self.isNull(node) { return Data() }
        guard let scalar = node?.scalar else { throw fail(node, path(), "expected a string") }
        guard base64 || Self.isBinary(scalar) else { return Data(scalar.string.utf8) }
        guard let data = Data(base64Encoded: scalar.string, options: .ignoreUnknownCharacters) else {
            throw fail(node, path(), "not valid base64")
        }
        return data
    }

    /// Headers written as a mapping of names to a list of values (or one value), in the order written.
    func headers(_ node: Node?, _ path: @autoclosure () -> String) throws(VCRImportError) -> HTTPHeaders {
        if Self.isNull(node) { return [:] }
        var fields: [HTTPHeaders.Field] = []
        for pair in try mapping(node, path()) {
            let name = try string(pair.key, path())
            if let values = pair.value.sequence {
                for (index, value) in values.enumerated() {
                    fields.append(HTTPHeaders.Field(name: name, value: try string(value, "\(path()).\(name)[\(index)]")))
                }
            } else if !Self.isNull(pair.value) {
                fields.append(HTTPHeaders.Field(name: name, value: try string(pair.value, "\(path()).\(name)")))
            }
        }
        return HTTPHeaders(fields)
    }
}
