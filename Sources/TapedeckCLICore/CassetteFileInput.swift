import Foundation
import TapedeckCassette

/// The cassette file a verb that opens cassettes by path works on, whatever recorded traffic it was given.
///
/// Verbs that only read (`serve`, `sweep`) take any format ``LoadedCassette`` reads: a Tapedeck cassette is used
/// where it is; a HAR file or a VCR cassette is converted into a temporary cassette first, which ``remove()``
/// deletes. Verbs that write the file back (`prune`, `migrate`, `redact`, recording into it) take Tapedeck
/// cassettes only, and ``refusal(forWriting:verb:)`` says what to do with anything else.
///
/// ```swift
/// let input = try CassetteFileInput.open(path: "session.har", verb: "serve")
/// defer { input.remove() }
/// try server.serve(cassette: input.url)
/// ```
public struct CassetteFileInput: Sendable {
    /// The Tapedeck cassette to open.
    public let url: URL
    /// What was read and converted, for the verb to print (empty for a Tapedeck cassette).
    public let notes: [String]
    /// The converted copy, when ``url`` is one.
    private let temporary: URL?

    /// The cassette for `path`, converted into a temporary file when it holds another format. A Pact contract and
    /// stub definitions are refused with the flag that serves them (`--pact`, `--stubs`), as their answers follow
    /// rules a cassette does not hold.
    ///
    /// - Throws: the file's reading error, or a refusal naming the format found and what reads it.
    public static func open(path: String, verb: String) throws(CassetteError) -> CassetteFileInput {
        let url = URL(fileURLWithPath: path)
        guard FileManager.default.fileExists(atPath: path) else { return CassetteFileInput(url: url, notes: [], temporary: nil) }
        let format = RecordingFormat.recognise(path: path)
        switch format {
        case .cassette:
            return CassetteFileInput(url: url, notes: [], temporary: nil)
        case .pact:
            throw refused(path, .pact, "serve it with `tapedeck serve --pact \(path)`, which answers by Pact's matching rules")
        case .stubs:
            throw refused(path, .stubs, "serve them with `tapedeck serve --stubs \(path)`")
        case .har, .vcr:
            let loaded = try LoadedCassette.load(path: path, as: format)
            let folder = FileManager.default.temporaryDirectory
                .appendingPathComponent("tapedeck-\(verb)-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))", isDirectory: true)
            let copy = folder.appendingPathComponent(url.deletingPathExtension().lastPathComponent + ".json")
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try CassetteFile.save(loaded.cassette, to: copy)
            } catch {
                try? FileManager.default.removeItem(at: folder)
                throw CassetteError.io(file: copy.path, operation: "write the converted copy of \(path) to", reason: "\(error)")
            }
            let note = "\(path) is \(loaded.format.name): \(verb) uses a cassette converted from it"
            return CassetteFileInput(url: copy, notes: loaded.notes + [note], temporary: folder)
        }
    }

    /// Whether ``url`` is a converted copy rather than the file given.
    public var isConverted: Bool { temporary != nil }

    /// Deletes the converted copy, if one was made.
    public func remove() {
        if let temporary { try? FileManager.default.removeItem(at: temporary) }
    }

    /// Why `verb`, which writes the cassette at `path` back, cannot work on it: `nil` for a Tapedeck cassette or
    /// a file that does not exist yet; otherwise a sentence naming the format found and how to get a cassette.
    ///
    /// ```swift
    /// CassetteFileInput.refusal(forWriting: "session.har", verb: "prune")
    /// // "session.har is a HAR file, and prune rewrites Tapedeck cassettes: `tapedeck convert session.har -o session.json` makes one"
    /// CassetteFileInput.refusal(forWriting: "pact.json", verb: "prune")
    /// // "pact.json is a Pact contract, and prune rewrites …: `tapedeck convert pact.json -o pact-cassette.json` makes one"
    /// ```
    public static func refusal(forWriting path: String, verb: String) -> String? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let format = RecordingFormat.recognise(path: path)
        switch format {
        case .cassette:
            return nil
        case .stubs:
            return "\(path) holds \(format.name), and \(verb) rewrites Tapedeck cassettes: `tapedeck serve --stubs \(path)` serves stubs"
        case .har, .vcr, .pact:
            let given = URL(fileURLWithPath: path)
            let stem = given.deletingPathExtension().lastPathComponent
            let target = stem + ".json" == given.lastPathComponent ? stem + "-cassette.json" : stem + ".json"
            return "\(path) is \(format.name), and \(verb) rewrites Tapedeck cassettes: `tapedeck convert \(path) -o \(target)` makes one"
        }
    }

    private static func refused(_ path: String, _ format: RecordingFormat, _ advice: String) -> CassetteError {
        CassetteError.io(file: path, operation: "open as a cassette", reason: "\(format == .stubs ? "it holds" : "it is") \(format.name); \(advice)")
    }
}
