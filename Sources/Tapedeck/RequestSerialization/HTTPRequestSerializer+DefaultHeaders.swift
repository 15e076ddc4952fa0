import Foundation
import TapedeckCore

extension HTTPRequestSerializer {
    /// The `User-Agent` a fresh serializer sends: `"Tapedeck/1.0.0 (Linux; Swift)"` on Linux (the version is
    /// `TapedeckCore`'s `TapedeckVersion.current`), with the platform name changed on other systems.
    public static let defaultUserAgent = "Tapedeck/\(TapedeckVersion.current) (\(platformName); Swift)"

    /// The `Accept-Language` value AFNetworking builds from preferred languages: at most the first six, each with
    /// a quality `q = 1 - index × 0.1` written with `%0.1g`, joined with `", "`; `nil` for an empty list.
    ///
    /// ```swift
    /// HTTPRequestSerializer.acceptLanguage(for: ["en", "fr"])  // "en;q=1, fr;q=0.9"
    /// ```
    public static func acceptLanguage(for languages: [String]) -> String? {
        guard !languages.isEmpty else { return nil }
        var components: [String] = []
        for (index, language) in languages.enumerated() {
            let quality = Float(1) - Float(index) * Float(0.1)
            components.append("\(language);q=\(String(format: "%0.1g", Double(quality)))")
            if quality <= 0.5 { break }
        }
        return components.joined(separator: ", ")
    }

    /// Sends `Authorization: Basic <base64 of "username:password">` (UTF-8) with every request.
    ///
    /// ```swift
    /// serializer.setAuthorization(username: "user", password: "pass")  // "Basic dXNlcjpwYXNz"
    /// ```
    public mutating func setAuthorization(username: String, password: String) {
        let credentials = Data("\(username):\(password)".utf8).base64EncodedString()
        defaultHeaders["Authorization"] = "Basic \(credentials)"
    }

    /// Stops sending a default `Authorization` header.
    public mutating func clearAuthorization() {
        defaultHeaders["Authorization"] = nil
    }

    private static var platformName: String {
        #if os(Linux)
            return "Linux"
        #elseif os(macOS)
            return "macOS"
        #elseif os(iOS)
            return "iOS"
        #elseif os(Windows)
            return "Windows"
        #else
            return "Unknown"
        #endif
    }
}
