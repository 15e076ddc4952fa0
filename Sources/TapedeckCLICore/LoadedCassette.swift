import Foundation
import TapedeckCore
import TapedeckCassette

/// A cassette read from disk with the location it came from, so bodies in sidecar files can be read.
///
/// ```swift
/// let loaded = try LoadedCassette.load(path: "Cassettes/login.json")
/// let body = loaded.bodyData(loaded.cassette.interactions[0].request.body)
/// ```
public struct LoadedCassette: Sendable {
    /// The file.
    public var url: URL
    /// Its interactions.
    public var cassette: Cassette

    /// What the file was read as: a Tapedeck cassette unless ``load(path:as:)`` read another format.
    public var format: RecordingFormat = .cassette
    /// What reading another format found, for the verb to print: "Read 12 interaction(s) from a Pact v3 contract
    /// between web and api", a VCR body kept as it was. Empty for a Tapedeck cassette.
    public var notes: [String] = []

    /// Wraps an already decoded cassette.
    public init(url: URL, cassette: Cassette) {
        self.url = url
        self.cassette = cassette
    }

    /// Reads a cassette, or any recorded traffic `tapedeck convert` reads: HAR 1.2, a vcrpy or Ruby VCR cassette, a
    /// Pact contract (v2, v3 or v4), recognised from the content (see ``RecordingFormat/recognise(path:)``).
    ///
    /// - Throws: `CassetteError` naming the file and, for invalid JSON, the line and column.
    public static func load(path: String) throws(CassetteError) -> LoadedCassette {
        try load(path: path, as: nil)
    }

    /// Reads the file at `path` as `format`, or as its content says when `format` is `nil`. Stub definitions are
    /// refused with the flag that serves them; other formats come in as `Cassette`s whose bodies are inline,
    /// with ``notes`` on what was read.
    ///
    /// ```swift
    /// let loaded = try LoadedCassette.load(path: "pacts/web-api.json", as: nil)
    /// print(loaded.format.name, loaded.cassette.interactions.count)   // a Pact contract 12
    /// ```
    /// - Throws: `CassetteError` naming the file and where in it the problem is.
    public static func load(path: String, as format: RecordingFormat?) throws(CassetteError) -> LoadedCassette {
        let url = URL(fileURLWithPath: path)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw CassetteError.io(file: path, operation: "read", reason: "no such file")
        }
        let format = format ?? RecordingFormat.recognise(path: path)
        switch format {
        case .cassette:
            return LoadedCassette(url: url, cassette: try CassetteFile.load(url))
        case .har:
            let data = try read(url, path)
            do {
                return LoadedCassette(url: url, cassette: try HARCodec.import(data), format: .har, notes: [])
            } catch {
                if case .invalidHAR(let place, let reason) = error {
                    throw CassetteError.invalidHAR(path: "\(path): \(place)", reason: reason)
                }
                throw error
            }
        case .vcr:
            return try loadVCR(url, path)
        case .pact:
            let data = try read(url, path)
            let pact: PactImport
            do { pact = try PactImport.read(data) } catch {
                throw CassetteError.io(file: path, operation: "read the Pact contract", reason: error.description)
            }
            let note = "Read \(pact.interactions.count) interaction(s) from a Pact v\(pact.version) contract between \(pact.consumer) and \(pact.provider)"
            return LoadedCassette(url: url, cassette: pact.cassette(recordedAt: Date()), format: .pact, notes: [note])
        case .stubs:
            throw CassetteError.io(file: path, operation: "read recorded traffic from", reason: "at $ it holds \(format.name), "
                + "which are not recorded traffic: `tapedeck serve --stubs \(path)` serves them")
        }
    }

    private init(url: URL, cassette: Cassette, format: RecordingFormat, notes: [String]) {
        self.url = url
        self.cassette = cassette
        self.format = format
        self.notes = notes
    }

    private static func read(_ url: URL, _ path: String) throws(CassetteError) -> Data {
        do { return try InputFile.read(url) } catch { throw CassetteError.io(file: path, operation: "read", reason: error.reason) }
    }

    /// A vcrpy or Ruby VCR cassette, its interactions dated by the file's modification time (vcrpy stores none).
    private static func loadVCR(_ url: URL, _ path: String) throws(CassetteError) -> LoadedCassette {
        let data = try read(url, path)
        let modified = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date) ?? Date()
        let imported: VCRImport.Result
        do { imported = try VCRImport.cassette(fromYAMLData: data, file: path, recordedAt: modified) } catch {
            let position = [error.line.map { "line \($0)" }, error.column.map { "column \($0)" }].compactMap { $0 }
            let place = [position.isEmpty ? nil : position.joined(separator: ", "), error.path.isEmpty ? nil : error.path]
            throw CassetteError.io(file: path, operation: "read the VCR cassette",
                                   reason: (place.compactMap { $0 } + [error.message]).joined(separator: ": "))
        }
        var found: [String] = []
        if imported.decompressedBodies > 0 { found.append("\(imported.decompressedBodies) compressed body(ies) decoded") }
        if imported.bodiesDecodedByTheClient > 0 {
            found.append("\(imported.bodiesDecodedByTheClient) body(ies) already decoded by the recording client")
        }
        let summary = "Read \(imported.cassette.interactions.count) interaction(s) from a \(imported.flavour.rawValue) cassette"
            + (found.isEmpty ? "" : " (\(found.joined(separator: ", ")))")
        return LoadedCassette(url: url, cassette: imported.cassette, format: .vcr,
                              notes: [summary] + imported.notes.map { "warning: \($0)" })
    }

    /// Whether `url` is a HAR document: a `.har` extension, or a JSON object whose first key is `log`.
    @available(*, deprecated, message: "use RecordingFormat.evidence(path:) == .har, which tells every format the CLI reads")
    public static func isHAR(_ url: URL) -> Bool {
        if url.pathExtension.lowercased() == "har" { return true }
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        let prefix = String(decoding: (try? handle.read(upToCount: 64)) ?? Data(), as: UTF8.self)
        let compact = prefix.filter { !$0.isWhitespace }
        return compact.hasPrefix("{\"log\"")
    }

    /// The bytes of a body, reading a sidecar file if needed; empty when the sidecar cannot be read.
    public func bodyData(_ body: CassetteBody) -> Data {
        (try? CassetteFile.bodyData(body, cassette: url)) ?? Data()
    }

    /// A body parsed as JSON, when it is JSON.
    public func json(_ body: CassetteBody) -> CassetteJSON? {
        CassetteJSON.parseBody(bodyData(body))
    }
}
