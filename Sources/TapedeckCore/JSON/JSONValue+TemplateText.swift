import Foundation

extension JSONValue {
    /// The value as template and message text: strings without quotes, everything else as compact JSON.
    package var templateText: String {
        if case .string(let text) = self { return text }
        return String(decoding: encoded, as: UTF8.self)
    }
}
