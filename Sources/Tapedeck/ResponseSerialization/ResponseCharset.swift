import Foundation

/// Character sets named in `Content-Type` (`text/plain; charset=ISO-8859-1`) and the `String.Encoding`s they mean.
enum ResponseCharset {
    /// The `charset` parameter of `head`'s `Content-Type`, lowercased and unquoted, when there is one.
    static func name(in head: HTTPResponseHead) -> String? {
        guard let contentType = head.headers["Content-Type"],
              let value = HTTPFieldSyntax.parameters(of: contentType)["charset"], !value.isEmpty else { return nil }
        return value.lowercased()
    }

    /// The encoding an IANA charset name stands for, when it is one Foundation decodes.
    static func encoding(named name: String) -> String.Encoding? {
        byName[name.lowercased()]
    }

    /// A readable name for `encoding`, e.g. `UTF-8`.
    static func name(of encoding: String.Encoding) -> String {
        displayNames[encoding.rawValue] ?? String(describing: encoding)
    }

    private static let byName: [String: String.Encoding] = [
        "utf-8": .utf8, "utf8": .utf8,
        "us-ascii": .ascii, "ascii": .ascii,
        "iso-8859-1": .isoLatin1, "iso8859-1": .isoLatin1, "iso_8859-1": .isoLatin1, "latin1": .isoLatin1,
        "l1": .isoLatin1,
        "iso-8859-2": .isoLatin2, "latin2": .isoLatin2,
        "utf-16": .utf16, "utf16": .utf16,
        "utf-16le": .utf16LittleEndian, "utf-16be": .utf16BigEndian,
        "utf-32": .utf32, "utf-32le": .utf32LittleEndian, "utf-32be": .utf32BigEndian,
        "windows-1250": .windowsCP1250, "windows-1251": .windowsCP1251, "windows-1252": .windowsCP1252,
        "windows-1253": .windowsCP1253, "windows-1254": .windowsCP1254,
        "macintosh": .macOSRoman,
    ]

    private static let displayNames: [UInt: String] = [
        String.Encoding.utf8.rawValue: "UTF-8",
        String.Encoding.ascii.rawValue: "US-ASCII",
        String.Encoding.isoLatin1.rawValue: "ISO-8859-1",
        String.Encoding.isoLatin2.rawValue: "ISO-8859-2",
        String.Encoding.utf16.rawValue: "UTF-16",
        String.Encoding.utf16LittleEndian.rawValue: "UTF-16LE",
        String.Encoding.utf16BigEndian.rawValue: "UTF-16BE",
        String.Encoding.utf32.rawValue: "UTF-32",
        String.Encoding.utf32LittleEndian.rawValue: "UTF-32LE",
        String.Encoding.utf32BigEndian.rawValue: "UTF-32BE",
        String.Encoding.windowsCP1250.rawValue: "windows-1250",
        String.Encoding.windowsCP1251.rawValue: "windows-1251",
        String.Encoding.windowsCP1252.rawValue: "windows-1252",
        String.Encoding.windowsCP1253.rawValue: "windows-1253",
        String.Encoding.windowsCP1254.rawValue: "windows-1254",
        String.Encoding.macOSRoman.rawValue: "macintosh",
    ]
}
