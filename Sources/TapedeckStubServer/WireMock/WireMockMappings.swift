import Foundation
import TapedeckCore

/// Reads WireMock stub mappings (the JSON of WireMock's `mappings` folder and of `POST /__admin/mappings/import`)
/// into the stub server's own ``Stub`` values, refusing with a ``WireMockMappingError`` anything the stub server
/// cannot do as WireMock would, never ignoring it. The StubDefinitions article lists what is read and what is
/// refused.
///
/// ```swift
/// for stub in try WireMockMappings.stubs(from: data) { server.add(stub) }
/// for stub in try WireMockMappings.stubs(inDirectory: URL(fileURLWithPath: "wiremock/mappings")) { server.add(stub) }
/// ```
public enum WireMockMappings {
    /// The stubs of one mapping, an array of them, or `{"mappings": [...]}`, in order. A `bodyFileName` is read
    /// from `filesDirectory` (WireMock's `__files`); without one, a mapping that names a body file is refused.
    /// `file` names the source in errors.
    public static func stubs(from data: Data, filesDirectory: URL? = nil, file: String? = nil) throws(WireMockMappingError) -> [Stub] {
        try stubs(from: try parse(data, file: file), filesDirectory: filesDirectory, file: file)
    }

    /// JSON text as a document to read, or the parser's reason why it is not JSON. Read as WireMock reads it: `//`
    /// and `/* */` comments and single-quoted strings are allowed.
    public static func parse(_ data: Data, file: String? = nil) throws(WireMockMappingError) -> JSONValue {
        let strict: Data
        do { strict = try WireMockJSONText.strict(data) } catch {
            throw WireMockMappingError(file: file, location: "$", reason: "not JSON: \(error.description)")
        }
        do {
            return try JSONValueParser.parse(strict)
        } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            throw WireMockMappingError(file: file, location: "$", reason: "not JSON: \(detail)")
        }
    }

    /// The stubs of an already parsed document (one mapping, an array, or `{"mappings": [...]}`), as the `Data` form reads them.
    public static func stubs(from document: JSONValue, filesDirectory: URL? = nil, file: String? = nil) throws(WireMockMappingError) -> [Stub] {
        var stubs: [Stub] = []
        switch document {
        case .array(let mappings):
            stubs.reserveCapacity(mappings.count)
            for (index, mapping) in mappings.enumerated() {
                stubs.append(try WireMockMappingReader(mapping, prefix: "[\(index)]", filesDirectory: filesDirectory, file: file).stub())
            }
        case .object(let members):
            if let list = members["mappings"] {
                if let extra = members.keys.sorted().first(where: { $0 != "mappings" && $0 != "meta" }) {
                    throw WireMockMappingError(file: file, location: extra, reason: "is not supported beside \"mappings\"")
                }
                guard case .array(let mappings) = list else {
                    throw WireMockMappingError(file: file, location: "mappings", reason: "expected an array of mappings")
                }
                stubs.reserveCapacity(mappings.count)
                for (index, mapping) in mappings.enumerated() {
                    stubs.append(try WireMockMappingReader(mapping, prefix: "mappings[\(index)]", filesDirectory: filesDirectory, file: file).stub())
                }
            } else {
                stubs.append(try WireMockMappingReader(document, prefix: "", filesDirectory: filesDirectory, file: file).stub())
            }
        default:
            throw WireMockMappingError(file: file, location: "$", reason: "expected a mapping, an array of mappings or {\"mappings\": [...]}")
        }
        return stubs
    }

    /// The stubs of a WireMock `mappings` folder: every `*.json` file in it and its subfolders, in the order of
    /// their paths. Body files are read from the `__files` folder beside it, as WireMock does. `directory` may also
    /// be WireMock's root folder, the one that holds `mappings` and `__files`.
    public static func stubs(inDirectory directory: URL) throws(WireMockMappingError) -> [Stub] {
        var mappingsFolder = directory.standardizedFileURL
        let nested = mappingsFolder.appendingPathComponent("mappings")
        var isDirectory: ObjCBool = false
        if mappingsFolder.lastPathComponent != "mappings", FileManager.default.fileExists(atPath: nested.path, isDirectory: &isDirectory),
           isDirectory.boolValue {
            mappingsFolder = nested
        }
        let files = mappingsFolder.deletingLastPathComponent().appendingPathComponent("__files")
        guard let enumerator = FileManager.default.enumerator(at: mappingsFolder, includingPropertiesForKeys: [.isRegularFileKey]) else {
            throw WireMockMappingError(file: directory.path, location: "$", reason: "cannot read the folder")
        }
        var paths: [URL] = []
        for case let url as URL in enumerator where url.pathExtension.lowercased() == "json" {
            if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true { paths.append(url) }
        }
        paths.sort { $0.path < $1.path }
        var stubs: [Stub] = []
        for url in paths {
            let data: Data
            do { data = try InputFile.read(url) } catch {
                throw WireMockMappingError(file: url.path, location: "$", reason: error.reason)
            }
            stubs += try self.stubs(from: data, filesDirectory: files, file: url.path)
        }
        return stubs
    }

    /// The `__files` folder WireMock would read a mapping file's body files from: beside the `mappings` folder the
    /// file is in, or beside the file itself when it is not in one.
    public static func filesDirectory(forMappingFile file: URL) -> URL {
        let folder = file.standardizedFileURL.deletingLastPathComponent()
        let root = folder.lastPathComponent == "mappings" ? folder.deletingLastPathComponent() : folder
        return root.appendingPathComponent("__files")
    }

    /// Whether `data` reads as WireMock mappings rather than Tapedeck stub definitions: `{"mappings": [...]}`, or
    /// mappings with a field only WireMock uses (request `url`, `urlPath`, `urlPattern`, `urlPathPattern`,
    /// `urlPathTemplate`, `queryParameters`, `bodyPatterns`, `basicAuthCredentials`; response `bodyFileName`,
    /// `fixedDelayMilliseconds`, `delayDistribution`, `statusMessage`, `transformers`, `proxyBaseUrl`; `uuid`,
    /// `scenarioName`, `requiredScenarioState`, `newScenarioState`; a WireMock 4 message stub's `trigger` and
    /// `actions`, read only to be refused by name) and none only Tapedeck uses (`stubs`, request
    /// `path`, `pathTemplate`, `pathRegex`, `query`, `body`; response `bodyFile`, `template`, `chunked`; `delay`,
    /// `scenario`). Fields both use (`method`, `headers`, `status`, `body`, `jsonBody`, `base64Body`) decide nothing.
    public static func looksLikeMappings(_ data: Data) -> Bool {
        guard let document = try? parse(data) else { return false }
        return looksLikeMappings(document)
    }

    /// Whether an already parsed document reads as WireMock mappings, as the `Data` form decides.
    public static func looksLikeMappings(_ document: JSONValue) -> Bool {
        if document["mappings"] != nil { return true }
        if document["stubs"] != nil { return false }
        let mappings = document.arrayValue ?? [document]
        var wireMock = false
        for mapping in mappings {
            guard let members = mapping.objectValue else { continue }
            let request = members["request"]?.objectValue ?? [:]
            let response = members["response"]?.objectValue ?? [:]
            if !tapedeckOnly.top.isDisjoint(with: members.keys) || !tapedeckOnly.request.isDisjoint(with: request.keys)
                || !tapedeckOnly.response.isDisjoint(with: response.keys) {
                return false
            }
            if !wireMockOnly.top.isDisjoint(with: members.keys) || !wireMockOnly.request.isDisjoint(with: request.keys)
                || !wireMockOnly.response.isDisjoint(with: response.keys) {
                wireMock = true
            }
        }
        return wireMock
    }

    private static let wireMockOnly = (
        top: Set(["uuid", "scenarioName", "requiredScenarioState", "newScenarioState", "postServeActions", "persistent", "metadata",
                  "trigger", "actions"]),
        request: Set(["url", "urlPath", "urlPattern", "urlPathPattern", "urlPathTemplate", "queryParameters", "bodyPatterns",
                      "basicAuthCredentials", "multipartPatterns", "formParameters"]),
        response: Set(["bodyFileName", "fixedDelayMilliseconds", "delayDistribution", "statusMessage", "transformers", "proxyBaseUrl",
                       "chunkedDribbleDelay"])
    )

    private static let tapedeckOnly = (
        top: Set(["delay", "scenario", "summary"]),
        request: Set(["path", "pathTemplate", "pathRegex", "query", "body"]),
        response: Set(["bodyFile", "template", "chunked", "partialBodySent", "partialBodyDeclared"])
    )
}
