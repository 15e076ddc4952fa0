import Foundation
import TapedeckCassette

/// What redaction changed in an interaction, as places (`interactions[0].request.headers.Authorization`), so
/// `tapedeck redact` can say what it did without printing the secrets.
public enum RedactionChanges {
    /// The places where `after` differs from `before`.
    public static func places(before: Interaction, after: Interaction, base: String) -> [String] {
        var places: [String] = []
        if before.request.url != after.request.url { places.append("\(base).request.url") }
        places += headerPlaces(before.request.headers, after.request.headers, path: "\(base).request.headers")
        if before.request.body != after.request.body { places.append("\(base).request.body") }
        if let old = before.response, let new = after.response {
            if old.url != new.url { places.append("\(base).response.url") }
            places += headerPlaces(old.headers, new.headers, path: "\(base).response.headers")
            if old.body != new.body { places.append("\(base).response.body") }
        }
        return places
    }

    static func headerPlaces(_ old: HTTPHeaders, _ new: HTTPHeaders, path: String) -> [String] {
        var places: [String] = []
        for (index, field) in old.enumerated() {
            let changed = index >= new.count || new[index].value != field.value || new[index].name != field.name
            if changed, !places.contains("\(path).\(field.name)") { places.append("\(path).\(field.name)") }
        }
        return places
    }
}
