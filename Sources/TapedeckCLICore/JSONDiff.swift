import TapedeckCassette

/// Every place where two JSON documents differ semantically (object key order ignored, numbers compared by value),
/// as dotted paths with both values.
///
/// ```swift
/// JSONDiff.differences(["a": 1, "b": true], ["b": true, "a": 2])   // [.init(path: "a", old: "1", new: "2")]
/// ```
public enum JSONDiff {
    /// One difference.
    public struct Difference: Sendable, Hashable {
        /// Dotted path, `$` for the root.
        public var path: String
        /// The value on the left, compact, or `nil` when absent.
        public var old: String?
        /// The value on the right, compact, or `nil` when absent.
        public var new: String?
    }

    /// All differences, in document order of `a` then keys only in `b`.
    public static func differences(_ a: CassetteJSON, _ b: CassetteJSON, path: String = "") -> [Difference] {
        func child(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
        let here = path.isEmpty ? "$" : path
        switch (a, b) {
        case (.object(let left), .object(let right)):
            var result: [Difference] = []
            var rightByKey: [String: CassetteJSON] = [:]
            for member in right where rightByKey[member.key] == nil { rightByKey[member.key] = member.value }
            let leftKeys = Set(left.map(\.key))
            for member in left {
                if let counterpart = rightByKey[member.key] {
                    result += differences(member.value, counterpart, path: child(member.key))
                } else {
                    result.append(Difference(path: child(member.key), old: BodyJSON.brief(member.value), new: nil))
                }
            }
            for member in right where !leftKeys.contains(member.key) {
                result.append(Difference(path: child(member.key), old: nil, new: BodyJSON.brief(member.value)))
            }
            return result
        case (.array(let left), .array(let right)):
            var result: [Difference] = []
            for index in 0..<max(left.count, right.count) {
                let key = child(String(index))
                if index >= left.count {
                    result.append(Difference(path: key, old: nil, new: BodyJSON.brief(right[index])))
                } else if index >= right.count {
                    result.append(Difference(path: key, old: BodyJSON.brief(left[index]), new: nil))
                } else {
                    result += differences(left[index], right[index], path: key)
                }
            }
            return result
        default:
            return a.semanticallyEquals(b) ? [] : [Difference(path: here, old: BodyJSON.brief(a), new: BodyJSON.brief(b))]
        }
    }
}
