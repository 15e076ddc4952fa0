import Foundation
import TapedeckCore

/// JSON comparison with parts ignored, for ``BodyPattern/jsonPartial(_:)`` (extra members and elements and array
/// order ignored) and ``BodyPattern/jsonEquivalent(_:ignoringArrayOrder:ignoringExtraElements:)``. Pure logic.
enum JSONPartialMatch {
    /// `nil` when `actual` contains `expected` (objects: every expected member present and matching, extra members
    /// allowed; arrays: every expected element matches a distinct actual element, in any order; scalars: equal), or
    /// the first difference as `path: reason`.
    static func difference(expected: JSONValue, actual: JSONValue, path: String = "$") -> String? {
        difference(expected: expected, actual: actual, ignoringArrayOrder: true, ignoringExtraElements: true, path: path)
    }

    /// `nil` when `actual` equals `expected` but for what is ignored, or the first difference as `path: reason`.
    /// With extra elements ignored, objects may have extra members and arrays extra elements (after the expected
    /// ones when order matters); with array order ignored, each expected element matches a distinct actual one.
    static func difference(expected: JSONValue, actual: JSONValue, ignoringArrayOrder: Bool, ignoringExtraElements: Bool,
                           path: String = "$") -> String? {
        func compare(_ expected: JSONValue, _ actual: JSONValue, _ path: String) -> String? {
            difference(expected: expected, actual: actual, ignoringArrayOrder: ignoringArrayOrder,
                       ignoringExtraElements: ignoringExtraElements, path: path)
        }
        switch (expected, actual) {
        case (.object(let wanted), .object(let got)):
            for key in wanted.keys.sorted() {
                guard let value = got[key] else { return "\(path).\(key): missing" }
                if let difference = compare(wanted[key]!, value, "\(path).\(key)") { return difference }
            }
            if !ignoringExtraElements, let extra = got.keys.sorted().first(where: { wanted[$0] == nil }) {
                return "\(path).\(extra): not expected"
            }
            return nil
        case (.array(let wanted), .array(let got)):
            if !ignoringExtraElements, wanted.count != got.count {
                return "\(path): expected \(wanted.count) element(s), got \(got.count)"
            }
            if !ignoringArrayOrder {
                guard got.count >= wanted.count else { return "\(path): expected \(wanted.count) element(s), got \(got.count)" }
                for (index, element) in wanted.enumerated() {
                    if let difference = compare(element, got[index], "\(path)[\(index)]") { return difference }
                }
                return nil
            }
            var unused = Array(got.indices)
            for (index, element) in wanted.enumerated() {
                guard let found = unused.firstIndex(where: { compare(element, got[$0], path) == nil }) else {
                    return "\(path)[\(index)]: no element \(ignoringExtraElements ? "contains" : "equals") \(element.templateText)"
                }
                unused.remove(at: found)
            }
            return nil
        default:
            return expected == actual ? nil : "\(path): expected \(expected.templateText), got \(actual.templateText)"
        }
    }
}
