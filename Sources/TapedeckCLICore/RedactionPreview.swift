import Foundation
import TapedeckCassette

/// What the redaction rules would change in a cassette, value by value, without printing a secret: the cassette is
/// redacted as a whole (`Redaction.redact(_:)`, so a secret found in one interaction counts wherever
/// it is copied) and compared with the original, part by part: URL path segments and query parameters, header
/// values, JSON members, form fields, other text, sidecar bodies included.
///
/// ```swift
/// for change in RedactionPreview.changes(in: cassette, redaction: .default, body: { $0.inlineData ?? Data() }) {
///     print(change.place, change.message)   // interactions[0].request.headers.Authorization header Authorization is not redacted: Be…U2 (40 chars)
/// }
/// ```
public enum RedactionPreview {
    /// One value redaction would change.
    public struct Change: Sendable, Hashable {
        /// The interaction's position.
        public var index: Int
        /// Where: `interactions[0].request.headers.Authorization`, `interactions[1].request.url query token`,
        /// `interactions[2].response.body.session.password`.
        public var place: String
        /// What: the kind of value, its name, and a masked preview (``SecretScanner/masked(_:)``).
        public var message: String
        /// The value as it is (kept out of reports; the entropy scan skips it).
        public var original: String
    }

    /// Every change, in the order of the interactions and of their parts; `body` reads a body's bytes (sidecar files
    /// included).
    public static func changes(in cassette: Cassette, redaction: Redaction, base: (Int) -> String = { "interactions[\($0)]" },
                               body: (CassetteBody) -> Data) -> [Change] {
        var redacted = cassette
        redaction.redact(&redacted)
        let secrets = redaction.secrets(in: cassette)
        var changes: [Change] = []
        for (index, (old, new)) in zip(cassette.interactions, redacted.interactions).enumerated() {
            var differ = Differ(index: index, changes: [])
            let base = base(index)
            differ.url(old.request.url, new.request.url, place: "\(base).request.url")
            differ.headers(old.request.headers, new.request.headers, place: "\(base).request.headers")
            differ.body(old.request.body, new.request.body, contentType: old.request.headers["Content-Type"], place: "\(base).request.body",
                        redaction: redaction, secrets: secrets, read: body)
            if let oldResponse = old.response, let newResponse = new.response {
                if let url = oldResponse.url { differ.url(url, newResponse.url ?? url, place: "\(base).response.url") }
                differ.headers(oldResponse.headers, newResponse.headers, place: "\(base).response.headers")
                differ.body(oldResponse.body, newResponse.body, contentType: oldResponse.headers["Content-Type"], place: "\(base).response.body",
                            redaction: redaction, secrets: secrets, read: body)
            }
            if case .failure(let oldFailure) = old.outcome, case .failure(let newFailure) = new.outcome {
                differ.text(oldFailure.message, newFailure.message, noun: "error message", name: nil, place: "\(base).error.message")
            }
            changes += differ.changes
        }
        return changes
    }

    /// Compares one interaction's parts, before and after redaction.
    private struct Differ {
        let index: Int
        var changes: [Change]

        mutating func url(_ old: String, _ new: String, place: String) {
            guard old != new else { return }
            let (oldPath, oldQuery) = Self.split(old), (newPath, newQuery) = Self.split(new)
            let oldSegments = oldPath.split(separator: "/", omittingEmptySubsequences: false)
            let newSegments = newPath.split(separator: "/", omittingEmptySubsequences: false)
            for (position, (a, b)) in zip(oldSegments, newSegments).enumerated() where a != b {
                text(String(a), String(b), noun: "URL path segment", name: "\(position)", place: "\(place) path")
            }
            pairs(oldQuery, newQuery, noun: "query parameter", label: "query", place: place)
        }

        mutating func headers(_ old: HTTPHeaders, _ new: HTTPHeaders, place: String) {
            for (a, b) in zip(old.fields, new.fields) where a.value != b.value {
                text(a.value, b.value, noun: "header", name: a.name, place: "\(place).\(a.name)")
            }
        }

        mutating func body(_ old: CassetteBody, _ new: CassetteBody, contentType: String?, place: String,
                           redaction: Redaction, secrets: [String], read: (CassetteBody) -> Data) {
            let before = read(old)
            let after = old.sidecarPath == nil ? read(new) : redaction.redactBody(before, contentType: contentType, scrubbing: secrets)
            guard before != after else { return }
            if let oldJSON = CassetteJSON.parseBody(before), let newJSON = CassetteJSON.parseBody(after) {
                json(oldJSON, newJSON, path: "", place: place)
            } else if contentType?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true {
                pairs(Substring(String(decoding: before, as: UTF8.self)), Substring(String(decoding: after, as: UTF8.self)), noun: "form field", label: "field", place: place)
            } else {
                text(String(decoding: before, as: UTF8.self), String(decoding: after, as: UTF8.self), noun: "body text", name: nil, place: place)
            }
        }

        private mutating func json(_ old: CassetteJSON, _ new: CassetteJSON, path: String, place: String) {
            switch (old, new) {
            case (.object(let a), .object(let b)):
                for (member, other) in zip(a, b) {
                    json(member.value, other.value, path: path.isEmpty ? member.key : "\(path).\(member.key)", place: place)
                }
            case (.array(let a), .array(let b)):
                for (position, (element, other)) in zip(a, b).enumerated() {
                    json(element, other, path: path.isEmpty ? "\(position)" : "\(path).\(position)", place: place)
                }
            default:
                guard old != new else { return }
                let name = path.split(separator: ".").last.map(String.init) ?? path
                text(Self.text(of: old), Self.text(of: new), noun: "JSON member", name: name, place: "\(place).\(path)")
            }
        }

        /// A scalar's text, or a container's compact JSON (a member redacted whole, e.g. `"session": {…}`).
        private static func text(of value: CassetteJSON) -> String {
            SecretScanner.memberText(value) ?? String(decoding: CassetteJSON.serialize(value), as: UTF8.self)
        }

        /// `name=value` pairs joined by `&`, compared by position (redaction keeps their number and order).
        private mutating func pairs(_ old: Substring, _ new: Substring, noun: String, label: String, place: String) {
            let a = old.split(separator: "&", omittingEmptySubsequences: false), b = new.split(separator: "&", omittingEmptySubsequences: false)
            for (oldPair, newPair) in zip(a, b) where oldPair != newPair {
                let oldPieces = oldPair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let newPieces = newPair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = URLEncodedForm.decode(oldPieces[0])
                text(oldPieces.count > 1 ? URLEncodedForm.decode(oldPieces[1]) : "", newPieces.count > 1 ? URLEncodedForm.decode(newPieces[1]) : "",
                     noun: noun, name: name, place: "\(place) \(label) \(name)")
            }
        }

        /// A changed value: wholly replaced (`… is not redacted`), or holding copies of a secret (the first one shown).
        mutating func text(_ old: String, _ new: String, noun: String, name: String?, place: String) {
            guard old != new else { return }
            let subject = name.map { "\(noun) \($0)" } ?? noun
            let message: String
            let keepsScheme = noun == "header" && ["authorization", "proxy-authorization"].contains(name?.lowercased() ?? "")
            if Self.isReplacedWhole(old, by: new, keepingScheme: keepsScheme) {
                message = "\(subject) is not redacted: \(SecretScanner.masked(old))"
            } else {
                message = "\(subject) holds a copy of a secret: \(SecretScanner.masked(Self.firstDifference(old, new)))"
            }
            changes.append(Change(index: index, place: place, message: message, original: old))
        }

        /// Whether `new` is the placeholder alone, or (`keepingScheme`) `old`'s scheme word and the placeholder
        /// (`Bearer [REDACTED]`).
        static func isReplacedWhole(_ old: String, by new: String, keepingScheme: Bool) -> Bool {
            let trimmed = new.trimmingCharacters(in: .whitespaces)
            if [Redaction.placeholder, "%5BREDACTED%5D"].contains(trimmed) || StandIn.isStandIn(trimmed) { return true }
            guard keepingScheme, let space = old.firstIndex(of: " "), new.hasPrefix(old[...space]) else { return false }
            let rest = new.dropFirst(old[...space].count)
            return rest == Redaction.placeholder || StandIn.isStandIn(rest)
        }

        /// The part of `old` that differs from `new` at their first difference, up to where they agree again.
        static func firstDifference(_ old: String, _ new: String) -> String {
            let a = Array(old), b = Array(new)
            var start = 0
            while start < a.count, start < b.count, a[start] == b[start] { start += 1 }
            let rest = b[start...]
            // The secret runs until the text after the placeholder starts again.
            let standIn = StandIn.all(in: String(rest)).first.flatMap { rest.starts(with: $0) ? $0 : nil }
            for placeholder in [Redaction.placeholder, "%5BREDACTED%5D", standIn].compactMap({ $0 }) where rest.starts(with: placeholder) {
                let after = Array(rest.dropFirst(placeholder.count).prefix(8))
                var end = start
                while end < a.count, !(after.isEmpty ? end == a.count : a[end...].starts(with: after)) { end += 1 }
                return String(a[start..<max(end, start)])
            }
            return String(a[start...])
        }

        static func split(_ url: String) -> (Substring, Substring) {
            guard let mark = url.firstIndex(of: "?") else { return (url[...], "") }
            let query = url[url.index(after: mark)...]
            return (url[..<mark], query.prefix { $0 != "#" })
        }
    }
}
