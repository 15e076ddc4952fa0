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
    /// `file` names the source in errors. WireMock 4 message stub mappings (`trigger` and `actions`, alone or in
    /// `{"messageMappings": [...]}`) become one WebSocket stub, ``messageStubID``, after the others.
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

    /// The stubs of an already parsed document (one mapping, an array, `{"mappings": [...]}` or
    /// `{"messageMappings": [...]}`), as the `Data` form reads them.
    public static func stubs(from document: JSONValue, filesDirectory: URL? = nil, file: String? = nil) throws(WireMockMappingError) -> [Stub] {
        var read = Read()
        try read.add(document, filesDirectory: filesDirectory, file: file)
        return read.stubs
    }

    /// The stubs of a WireMock `mappings` folder: every `*.json` file in it and its subfolders, in the order of
    /// their paths. Body files are read from the `__files` folder beside it, as WireMock does. `directory` may also
    /// be WireMock's root folder, the one that holds `mappings` and `__files`; its `message-mappings` folder is then
    /// read too. The message stub mappings of all the files make up one WebSocket stub, as in WireMock they all
    /// apply to every connection.
    public static func stubs(inDirectory directory: URL) throws(WireMockMappingError) -> [Stub] {
        var mappingsFolder = directory.standardizedFileURL
        var folders = [mappingsFolder]
        if mappingsFolder.lastPathComponent != "mappings", isFolder(mappingsFolder.appendingPathComponent("mappings")) {
            mappingsFolder = mappingsFolder.appendingPathComponent("mappings")
            folders = [mappingsFolder]
            let messages = directory.standardizedFileURL.appendingPathComponent("message-mappings")
            if isFolder(messages) { folders.append(messages) }
        }
        let files = mappingsFolder.deletingLastPathComponent().appendingPathComponent("__files")
        var read = Read()
        for folder in folders {
            guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else {
                throw WireMockMappingError(file: folder.path, location: "$", reason: "cannot read the folder")
            }
            var paths: [URL] = []
            for case let url as URL in enumerator where url.pathExtension.lowercased() == "json" {
                if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true { paths.append(url) }
            }
            paths.sort { $0.path < $1.path }
            for url in paths {
                let data: Data
                do { data = try InputFile.read(url) } catch {
                    throw WireMockMappingError(file: url.path, location: "$", reason: error.reason)
                }
                try read.add(try parse(data, file: url.path), filesDirectory: files, file: url.path)
            }
        }
        return read.stubs
    }

    private static func isFolder(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// The ID of the stub that WireMock 4 message stub mappings become.
    public static let messageStubID = "wiremock-message-stubs"

    /// The mappings read so far: HTTP stubs, and the rules of the WebSocket stub the message stub mappings make up.
    private struct Read {
        var httpStubs: [Stub] = []
        var messageRules: [WireMockMessageRule] = []

        mutating func add(_ document: JSONValue, filesDirectory: URL?, file: String?) throws(WireMockMappingError) {
            switch document {
            case .array(let mappings):
                for (index, mapping) in mappings.enumerated() {
                    try add(mapping: mapping, prefix: "[\(index)]", filesDirectory: filesDirectory, file: file)
                }
            case .object(let members):
                let lists = ["mappings", "messageMappings"].filter { members[$0] != nil }
                if lists.isEmpty {
                    try add(mapping: document, prefix: "", filesDirectory: filesDirectory, file: file)
                    return
                }
                if let extra = members.keys.sorted().first(where: { !lists.contains($0) && $0 != "meta" }) {
                    throw WireMockMappingError(file: file, location: extra, reason: "is not supported beside \"\(lists[0])\"")
                }
                for key in lists {
                    guard case .array(let mappings) = members[key]! else {
                        throw WireMockMappingError(file: file, location: key, reason: "expected an array of mappings")
                    }
                    for (index, mapping) in mappings.enumerated() {
                        try add(mapping: mapping, prefix: "\(key)[\(index)]", filesDirectory: filesDirectory, file: file)
                    }
                }
            default:
                throw WireMockMappingError(file: file, location: "$", reason: "expected a mapping, an array of mappings or {\"mappings\": [...]}")
            }
        }

        private mutating func add(mapping: JSONValue, prefix: String, filesDirectory: URL?, file: String?) throws(WireMockMappingError) {
            let reader = WireMockMappingReader(mapping, prefix: prefix, filesDirectory: filesDirectory, file: file)
            if let members = mapping.objectValue, WireMockMappingReader.isMessageMapping(members) {
                messageRules.append(try reader.messageRule())
            } else {
                httpStubs.append(try reader.stub())
            }
        }

        /// The HTTP stubs, then the WebSocket stub of the message stub mappings: it takes every WebSocket upgrade
        /// (`GET` with `Upgrade: websocket`, on any path, before the HTTP stubs, as WireMock's WebSocket endpoint
        /// does) and answers a message with the first rule that accepts it, by priority, then in the order read.
        var stubs: [Stub] {
            guard !messageRules.isEmpty else { return httpStubs }
            let rules = messageRules.enumerated().sorted { ($0.element.priority, $0.offset) < ($1.element.priority, $1.offset) }.map(\.element.rule)
            let upgrade = RequestPattern(.get, headers: ["Upgrade": .matches("(?i).*websocket.*")])
            return httpStubs + [Stub(id: WireMockMappings.messageStubID, name: "WireMock message stubs", upgrade, priority: 0,
                                     responder: .webSocket(WebSocketStub(rules: rules)))]
        }
    }

    /// The `__files` folder WireMock would read a mapping file's body files from: beside the `mappings` folder the
    /// file is in, or beside the file itself when it is not in one.
    public static func filesDirectory(forMappingFile file: URL) -> URL {
        let folder = file.standardizedFileURL.deletingLastPathComponent()
        let root = folder.lastPathComponent == "mappings" ? folder.deletingLastPathComponent() : folder
        return root.appendingPathComponent("__files")
    }

    /// Whether `data` reads as WireMock mappings rather than Tapedeck stub definitions: `{"mappings": [...]}` or
    /// `{"messageMappings": [...]}`, or
    /// mappings with a field only WireMock uses (request `url`, `urlPath`, `urlPattern`, `urlPathPattern`,
    /// `urlPathTemplate`, `queryParameters`, `bodyPatterns`, `basicAuthCredentials`; response `bodyFileName`,
    /// `fixedDelayMilliseconds`, `delayDistribution`, `statusMessage`, `transformers`, `proxyBaseUrl`; `uuid`,
    /// `scenarioName`, `requiredScenarioState`, `newScenarioState`; a WireMock 4 message stub's `trigger` and
    /// `actions`) and none only Tapedeck uses (`stubs`, request
    /// `path`, `pathTemplate`, `pathRegex`, `query`, `body`; response `bodyFile`, `template`, `chunked`; `delay`,
    /// `scenario`). Fields both use (`method`, `headers`, `status`, `body`, `jsonBody`, `base64Body`) decide nothing.
    public static func looksLikeMappings(_ data: Data) -> Bool {
        guard let document = try? parse(data) else { return false }
        return looksLikeMappings(document)
    }

    /// Whether an already parsed document reads as WireMock mappings, as the `Data` form decides.
    public static func looksLikeMappings(_ document: JSONValue) -> Bool {
        if document["mappings"] != nil || document["messageMappings"] != nil { return true }
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
