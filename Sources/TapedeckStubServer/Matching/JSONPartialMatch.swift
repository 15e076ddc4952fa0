import Foundation
import TapedeckCore

/// JSON-partial matching, for ``BodyPattern/jsonPartial(_:)``: the expected value must be contained in the actual
/// one. Pure logic.
enum JSONPartialMatch {
    /// `nil` when `actual` contains `expected` (objects: every expected member present and matching, extra members
    /// allowed; arrays: every expected element matches a distinct actual element, in any order; scalars: equal), or
    /// the first difference as `path: reason`.
    static func difference(expected: JSONValue, actual: JSONValue, path: String = "$") -> String? {
        switch (expected, actual) {
        case (.object(let wanted), .object(let got)):
            for key in wanted.keys.sorted() {
                guard let value = got[key] else { return "\(path).\(key): missing" }
                if let difference = difference(expected: wanted[key]!, actual: value, path: "\(path).\(key)") {
                    return difference
                }
            }
            return nil
        case (.array(let wanted), .array(let got)):
            var unused = Array(got.indices)
            for (index, element) in wanted.enumerated() {
                guard let found = unused.firstIndex(where: { difference(expected: element, actual: got[$0]) == nil }) else {
                    return "\(path)[\(index)]: no element contains \(element.templateText)"
                }
                unused.remove(at: found)
            }
            return nil
        default:
            return expected == actual ? nil : "\(path): expected \(expected.templateText), got \(actual.templateText)"
        }
    }
}
