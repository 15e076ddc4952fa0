import Foundation
import TapedeckCassette

/// The kinds of file the CLI's verbs are handed, told apart by their content, with what reads each: a Tapedeck
/// cassette, a HAR file, a vcrpy or Ruby VCR cassette and a Pact contract are recorded traffic that every verb
/// reading cassettes takes (``LoadedCassette/load(path:as:)``); stub definitions (Tapedeck's or WireMock's) are not
/// traffic, and only `tapedeck serve --stubs` reads them.
///
/// ```swift
/// RecordingFormat.recognise(path: "contract.json")   // .pact, from its "consumer" and "provider"
/// RecordingFormat.evidence(path: "notes.txt")         // nil: no sign of any format
/// ```
public enum RecordingFormat: String, Sendable, CaseIterable {
    /// A Tapedeck cassette (`FORMAT.md`).
    case cassette
    /// A HAR 1.2 document: a `.har` file, or a top-level `log`.
    case har
    /// A vcrpy or Ruby VCR cassette: a `.yaml`/`.yml` file, or YAML whose first key is `interactions` or
    /// `http_interactions`.
    case vcr
    /// A Pact contract (v2, v3 or v4): a top-level `consumer` or `provider`.
    case pact
    /// Stub definitions, Tapedeck's or WireMock's: a top-level `stubs` or `mappings`, one definition (`request` and
    /// `response` with no `interactions`), or an array whose first element is one.
    case stubs

    /// How messages name the format: "a HAR file".
    public var name: String {
        switch self {
        case .cassette: "a Tapedeck cassette"
        case .har: "a HAR file"
        case .vcr: "a VCR cassette (vcrpy or Ruby VCR)"
        case .pact: "a Pact contract"
        case .stubs: "stub definitions (Tapedeck's or WireMock's)"
        }
    }

    /// How much of a file is read to recognise it.
    static let prefixLength = 65_536

    /// The format of the file at `path`, from its name and the first 64 KiB of its content; a file that cannot be
    /// read, or that shows no sign of any format, is taken for a cassette (whose loader then says what is wrong).
    public static func recognise(path: String) -> RecordingFormat {
        evidence(path: path) ?? .cassette
    }

    /// The format the file at `path` shows signs of, or `nil` when it shows none: a `.har`, `.yaml` or `.yml` name;
    /// a top-level `log` (HAR), `consumer` or `provider` (Pact), `interactions` (a cassette), `mappings` or `stubs`,
    /// or `request` with `response` (stub definitions); YAML whose first key is `interactions` or
    /// `http_interactions` (VCR).
    public static func evidence(path: String) -> RecordingFormat? {
        let url = URL(fileURLWithPath: path)
        let suffix = url.pathExtension.lowercased()
        if suffix == "har" { return .har }
        if suffix == "yaml" || suffix == "yml" { return .vcr }
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        return evidence(prefix: (try? handle.read(upToCount: prefixLength)) ?? Data())
    }

    /// The format a file that begins with `prefix` shows signs of (see ``evidence(path:)``).
    public static func evidence(prefix: Data) -> RecordingFormat? {
        let bytes = [UInt8](prefix)
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        while start < bytes.count, Self.isSpace(bytes[start]) { start += 1 }
        guard start < bytes.count else { return nil }
        switch bytes[start] {
        case UInt8(ascii: "["):
            // An array of stub definitions or mappings; anything else is left to the cassette loader to refuse.
            let names = TopLevelNames.read(bytes[(start + 1)...])
            return names.contains("request") && names.contains("response") ? .stubs : nil
        case UInt8(ascii: "{"):
            let names = TopLevelNames.read(bytes[start...])
            if names.contains("log") { return .har }
            if names.contains("consumer") || names.contains("provider") { return .pact }
            if names.contains("interactions") { return .cassette }
            if names.contains("mappings") || names.contains("stubs") { return .stubs }
            if names.contains("request") && names.contains("response") { return .stubs }
            return nil
        default:
            let text = String(decoding: bytes[start...].prefix(4_096), as: UTF8.self)
            let firstKey = text.split(whereSeparator: \.isNewline).first { line in
                !line.hasPrefix("#") && !line.hasPrefix("---") && !line.allSatisfy(\.isWhitespace)
            }
            if let firstKey, firstKey.hasPrefix("interactions:") || firstKey.hasPrefix("http_interactions:") { return .vcr }
            return nil
        }
    }

    /// JSON's whitespace: space, tab, line feed, carriage return.
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}

/// The member names of a JSON document's top-level object, read from a prefix of it (leading whitespace allowed)
/// without building any value: member values are skipped (strings with their escapes, containers by depth). Reading
/// stops quietly at the end of the prefix or at anything that is not JSON; the names read until then are returned.
enum TopLevelNames {
    static func read(_ bytes: ArraySlice<UInt8>) -> Set<String> {
        var names: Set<String> = []
        var index = bytes.startIndex
        func skipSpace() {
            while index < bytes.endIndex, RecordingFormat.isSpace(bytes[index]) { index += 1 }
        }
        /// Past a string that starts at `index`; its bytes without the quotes, or `nil` when it does not end.
        func string() -> ArraySlice<UInt8>? {
            let open = index
            index += 1
            while index < bytes.endIndex {
                switch bytes[index] {
                case UInt8(ascii: "\\"): index += 2
                case UInt8(ascii: "\""):
                    index += 1
                    return bytes[(open + 1)..<(index - 1)]
                default: index += 1
                }
            }
            return nil
        }
        skipSpace()
        guard index < bytes.endIndex, bytes[index] == UInt8(ascii: "{") else { return names }
        index += 1
        while true {
            skipSpace()
            guard index < bytes.endIndex, bytes[index] == UInt8(ascii: "\""), let name = string() else { return names }
            names.insert(String(decoding: name, as: UTF8.self))
            skipSpace()
            guard index < bytes.endIndex, bytes[index] == UInt8(ascii: ":") else { return names }
            index += 1
            // Skips the value: up to the comma or brace that closes it at depth 0.
            var depth = 0
            while index < bytes.endIndex {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    guard string() != nil else { return names }
                    continue
                }
                if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") { depth += 1 }
                if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                    if depth == 0 { return names }
                    depth -= 1
                }
                if byte == UInt8(ascii: ","), depth == 0 { break }
                index += 1
            }
            guard index < bytes.endIndex else { return names }
            index += 1  // the comma
        }
    }
}
