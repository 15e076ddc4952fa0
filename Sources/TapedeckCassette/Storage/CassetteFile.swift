import Foundation
import TapedeckCore

/// Cassette files on disk: loading (with recovery of interactions journaled by a recorder that did not finish),
/// atomic saving, and sidecar bodies.
///
/// ```swift
/// let url = URL(fileURLWithPath: "Cassettes/login.json")
/// var cassette = try CassetteFile.load(url)
/// cassette.interactions.removeLast()
/// try CassetteFile.save(cassette, to: url)
/// ```
public enum CassetteFile {
    /// The journal beside a cassette: `<cassette>.journal`.
    static func journalURL(_ cassette: URL) -> URL { URL(fileURLWithPath: cassette.path + ".journal") }

    /// The folder for a cassette's sidecar bodies, relative to the cassette's directory: `<name>.bodies`.
    static func sidecarFolder(_ cassette: URL) -> String {
        cassette.deletingPathExtension().lastPathComponent + ".bodies"
    }

    /// Whether a cassette exists at `url` (or only its journal, left by a recorder that was killed).
    public static func exists(_ url: URL) -> Bool {
        FileManager.default.fileExists(atPath: url.path) || FileManager.default.fileExists(atPath: journalURL(url).path)
    }

    /// Loads a cassette, adding any interactions a recorder journaled but did not yet fold into the file.
    ///
    /// - Throws: ``CassetteError`` naming the file and, for invalid JSON, the line and column.
    public static func load(_ url: URL) throws(CassetteError) -> Cassette {
        // A recorder may fold its journal into the file between our two reads; read again if that shows.
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try loadOnce(url)
            } catch JournalGap.gap where attempt < 5 {
                continue
            } catch JournalGap.gap {
                throw CassetteError.invalidFormat(file: journalURL(url).path, path: "seq", reason: "the journal does not continue the cassette")
            } catch let error as CassetteError {
                throw error
            } catch {
                throw CassetteError.io(file: url.path, operation: "read", reason: "\(error)")
            }
        }
    }

    private enum JournalGap: Error { case gap }

    private static func loadOnce(_ url: URL) throws -> Cassette {
        var cassette = Cassette()
        if FileManager.default.fileExists(atPath: url.path) {
            let data: Data
            do { data = try InputFile.read(url) } catch {
                throw CassetteError.io(file: url.path, operation: "read", reason: error.reason)
            }
            cassette = try CassetteCodec.decode(data, file: url.path)
        }
        if let journal = try? Data(contentsOf: journalURL(url)), !journal.isEmpty {
            guard let added = try journaledInteractions(journal, after: cassette.interactions.count, file: journalURL(url).path) else {
                throw JournalGap.gap
            }
            cassette.interactions += added
        }
        return cassette
    }

    /// Saves a cassette atomically (temporary file and rename).
    public static func save(_ cassette: Cassette, to url: URL) throws(CassetteError) {
        do { try AtomicFile.write(CassetteCodec.encode(cassette), to: url) } catch { throw CassetteError(error) }
    }

    /// The bytes of a body, reading a sidecar relative to the cassette at `cassette`. `place` says where the body
    /// is in the cassette (`interactions[3].response.body`, see ``Cassette/place(ofSidecar:)``), for the refusal of a
    /// sidecar that cannot be read; it is worked out only then.
    public static func bodyData(_ body: CassetteBody, cassette: URL,
                                place: @autoclosure () -> String? = nil) throws(CassetteError) -> Data {
        switch body.storage {
        case .inline(let data):
            return data
        case .sidecar(let path, _):
            let file = try sidecarToRead(path, cassette: cassette, place: place())
            do { return try InputFile.read(file) } catch { throw sidecarFailure(path, cassette: cassette, place: place(), reason: error.reason) }
        }
    }

    /// The sidecar file `path` names, to be read: inside the cassette's folder once every symbolic link is resolved
    /// (`ConfinedPath`), since a cassette may come from anyone. A path that leads out, or names no file, is refused
    /// with the path, its place in the cassette when known, and the cassette named.
    public static func sidecarToRead(_ path: String, cassette: URL,
                                     place: @autoclosure () -> String? = nil) throws(CassetteError) -> URL {
        let named = sidecarURL(path, cassette: cassette)
        // Nothing there: reading it says "does not exist" (or why not), in InputFile's words.
        guard FileManager.default.fileExists(atPath: named.path) else { return named }
        switch ConfinedPath.resolve(path, in: cassette.deletingLastPathComponent()) {
        case .success(let file): return file
        case .failure(let refusal): throw sidecarFailure(path, cassette: cassette, place: place(), reason: refusal.reason)
        }
    }

    /// A sidecar body that cannot be read, said with the cassette that names it (the file the user gave), the
    /// sidecar path as written there (a long one cut short, see `Shown`) and, when known, the body's place: "could
    /// not read the sidecar body bodies/ab.bin named at interactions[0].response.body in c.json: does not exist".
    static func sidecarFailure(_ path: String, cassette: URL, place: String? = nil, reason: String) -> CassetteError {
        let named = place.map { "named at \($0) in" } ?? "named in"
        return .io(file: cassette.path, operation: "read the sidecar body \(Shown.truncated(path)) \(named)",
                   reason: Shown.truncated(reason, limit: 4 * Shown.limit))
    }

    /// The absolute location of a sidecar path.
    public static func sidecarURL(_ path: String, cassette: URL) -> URL {
        cassette.deletingLastPathComponent().appendingPathComponent(path)
    }

    // MARK: - Journal lines

    /// One journal line: `{"seq":N,"interaction":{…}}` and a newline.
    static func journalLine(_ interaction: Interaction, sequence: Int) -> [UInt8] {
        var writer = JSONWriter(style: .compact)
        var line = writer.beginObject(level: 0)
        writer.member("seq", integer: Int64(sequence), in: &line)
        writer.key("interaction", in: &line)
        CassetteCodec.write(interaction, to: &writer, level: line.childLevel)
        writer.end(line)
        writer.output.append(0x0A)
        return writer.output.array
    }

    /// The interactions of a journal whose sequence numbers continue a cassette of `count` interactions. Lines
    /// already folded into the cassette are skipped; a final line without its newline (cut by a crash) is ignored.
    /// Returns `nil` when the journal starts after the cassette's end (the file was read before a fold).
    static func journaledInteractions(_ journal: Data, after count: Int, file: String) throws(CassetteError) -> [Interaction]? {
        var result: [Interaction] = []
        var lineStart = journal.startIndex
        var lineNumber = 0
        while let newline = journal[lineStart...].firstIndex(of: 0x0A) {
            lineNumber += 1
            defer { lineStart = newline + 1 }
            let line = journal[lineStart..<newline]
            guard !line.isEmpty else { continue }
            let json: CassetteJSON
            do { json = try CassetteJSON.parse(Data(line)) } catch {
                throw CassetteError.corrupt(file: file, line: lineNumber, column: error.column, reason: error.reason)
            }
            let fields = FieldReader(json, path: "line \(lineNumber)", file: file)
            let sequence = try fields.int("seq")
            guard sequence >= count + result.count else { continue }
            guard sequence == count + result.count else { return nil }
            result.append(try CassetteCodec.decodeInteraction(try fields.value("interaction"), path: "line \(lineNumber).interaction", file: file))
        }
        return result
    }
}
