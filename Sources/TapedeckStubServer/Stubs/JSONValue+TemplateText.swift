import Foundation
import TapedeckCore

extension JSONValue {
    /// The value as ``ResponseTemplate`` and message text: strings without quotes, everything else as compact JSON.
    var templateText: String {
        if case .string(let text) = self { return text }
        return String(decoding: encoded, as: UTF8.self)
    }
}
