import Foundation
import TapedeckCassette
import TapedeckCore
import TapedeckYAML
import Yams

/// Reads vcrpy and Ruby VCR YAML cassettes as Tapedeck cassettes: the engine of `tapedeck convert --from vcr`.
///
/// - vcrpy (`interactions:` and `version: 1`): bodies as text, `!!binary` base64, or `null`; `status: {code,
///   message}`; headers as name → list of values. No timestamps are stored, so every interaction gets `recordedAt`.
/// - Ruby VCR (`http_interactions:`): bodies as `{encoding, string}` (a `!binary` string is base64) or `{encoding,
///   base64_string}` (`preserve_exact_body_bytes`); lower-case methods; `http_version`; `recorded_at` (an HTTP date).
///
/// Compressed responses are read in every form vcrpy and VCR write, told apart by the bytes rather than the header
/// (`VCRBodyCoding`), and stored as Tapedeck's default transport records them: a `gzip` body decoded (by the import,
/// or already by the recording client as vcrpy over `requests` or `httpx` does) with its `Content-Encoding` kept,
/// so the client stack gets the decoded bytes and a served cassette compresses them again; a `deflate` body is
/// inflated if it is a whole zlib or raw deflate stream and stored without its `Content-Encoding` (as vcrpy's
/// `decode_compressed_response` does, `Content-Length` corrected). A body that announces a coding but cannot be
/// decoded is kept byte for byte and listed in ``Result/notes``: none is shortened. Every interaction then goes
/// through `Redaction` (vcrpy and VCR redact nothing by default).
///
/// ```swift
/// let text = try String(contentsOfFile: "fixtures/cassette.yaml", encoding: .utf8)
/// let imported = try VCRImport.cassette(fromYAML: text, file: "fixtures/cassette.yaml", recordedAt: Date())
/// try CassetteFile.save(imported.cassette, to: URL(fileURLWithPath: "cassette.json"))
/// ```
public enum VCRImport {
    /// Which tool wrote the cassette.
    public enum Flavour: String, Sendable {
        /// vcrpy (Python).
        case vcrpy
        /// VCR (Ruby).
        case rubyVCR = "Ruby VCR"
    }

    /// An imported cassette and what the import noticed.
    public struct Result: Sendable {
        /// The cassette.
        public var cassette: Cassette
        /// Which tool wrote the source.
        public var flavour: Flavour
        /// How many response bodies were decompressed (gzip or deflate bytes in the file).
        public var decompressedBodies: Int
        /// How many response bodies the recording client had decoded already while the file kept their
        /// `Content-Encoding` (vcrpy over `requests` or `httpx`).
        public var bodiesDecodedByTheClient: Int = 0
        /// Bodies kept byte for byte because they announce a coding they could not be decoded from, each as
        /// `interactions[3].response.body: why`.
        public var notes: [String] = []
    }

    /// Reads a VCR cassette from its bytes: UTF-8, with or without a byte order mark.
    ///
    /// - Parameters:
    ///   - data: the YAML file's bytes.
    ///   - file: the file's name, for messages.
    ///   - recordedAt: the time given to interactions whose source has none (vcrpy's).
    ///   - redaction: applied to every interaction.
    /// - Throws: ``VCRImportError`` naming the file, the line and column and the YAML path of what is wrong, also
    ///   for a document past the YAML limits (size, nesting, alias expansion: `YAMLDocument.Limits`).
    public static func cassette(fromYAMLData data: Data, file: String, recordedAt: Date,
                                redaction: Redaction = .default) throws(VCRImportError) -> Result {
        let text: String
        do { text = try YAMLDocument.text(data) } catch {
            throw VCRImportError(file: file, line: error.line, column: error.column, path: "", message: error.message)
        }
        return try cassette(fromYAML: text, file: file, recordedAt: recordedAt, redaction: redaction)
    }

    /// Reads a VCR cassette from its text.
    ///
    /// - Parameters:
    ///   - text: the YAML.
    ///   - file: the file's name, for messages.
    ///   - recordedAt: the time given to interactions whose source has none (vcrpy's).
    ///   - redaction: applied to every interaction.
    /// - Throws: ``VCRImportError`` as ``cassette(fromYAMLData:file:recordedAt:redaction:)`` does.
    public static func cassette(fromYAML text: String, file: String, recordedAt: Date,
                                redaction: Redaction = .default) throws(VCRImportError) -> Result {
        let root: Node?
        do { root = try YAMLDocument.compose(text, resolver: .basic) } catch {
            throw VCRImportError(file: file, line: error.line, column: error.column, path: "", message: error.message)
        }
        let reader = YAMLReader(file: file)
        let top = try reader.mapping(root, "the document")
        let flavour: Flavour
        let key: String
        if YAMLReader.value(top, "http_interactions") != nil {
            (flavour, key) = (.rubyVCR, "http_interactions")
        } else if YAMLReader.value(top, "interactions") != nil {
            (flavour, key) = (.vcrpy, "interactions")
            if let version = YAMLReader.value(top, "version"), try reader.integer(version, "version") != 1 {
                throw reader.fail(version, "version", "vcrpy cassette version \(version.scalar?.string ?? "?") is not supported (1 is)")
            }
        } else {
            throw reader.fail(root, "", "neither a vcrpy cassette (no 'interactions' key) nor a Ruby VCR one (no 'http_interactions' key)")
        }
        var converter = InteractionConverter(reader: reader, flavour: flavour, recordedAt: recordedAt)
        var interactions: [Interaction] = []
        let list = YAMLReader.value(top, key)
        if !YAMLReader.isNull(list) {
            let sequence = try reader.sequence(list, key)
            interactions.reserveCapacity(sequence.count)
            for (index, node) in sequence.enumerated() {
                var interaction = try converter.interaction(node, path: "\(key)[\(index)]")
                do {
                    try Redaction.refusingGiveUps(file: file, place: "\(key)[\(index)]") { redaction.redact(&interaction) }
                } catch {
                    throw reader.fail(node, "\(key)[\(index)]", "\(error)")
                }
                interactions.append(interaction)
            }
        }
        return Result(cassette: Cassette(interactions: interactions), flavour: flavour, decompressedBodies: converter.decompressed,
                      bodiesDecodedByTheClient: converter.storedDecoded, notes: converter.notes)
    }
}
