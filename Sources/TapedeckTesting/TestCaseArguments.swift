import Testing

/// The arguments of a parameterized test case, rendered for a file name.
///
/// Swift Testing does not make a case's arguments public, so they are read by reflection (`Mirror`): the first
/// stored `arguments` collection found in the case, each element's `value`. If a future release stores them
/// differently, the rendering falls back to a stable hash of the case's description, which still tells cases apart.
enum TestCaseArguments {
    static func rendered(_ testCase: Test.Case) -> [String] {
        guard testCase.isParameterized else { return [] }
        if let arguments = find(label: "arguments", in: testCase, depth: 4) {
            let values = Mirror(reflecting: arguments).children.compactMap { argument in
                find(label: "value", in: argument.value, depth: 1).map { String(describingForTest: $0) }
            }
            if !values.isEmpty { return values }
        }
        return [fallbackName(for: testCase)]
    }

    /// The value stored under `label`, searching children breadth first down to `depth` levels.
    private static func find(label: String, in value: Any, depth: Int) -> Any? {
        var level: [Any] = [value]
        for _ in 0..<depth {
            var next: [Any] = []
            for item in level {
                for child in Mirror(reflecting: item).children {
                    if child.label == label { return child.value }
                    next.append(child.value)
                }
            }
            level = next
        }
        return nil
    }

    /// FNV-1a of the case's description, as hex: stable across runs for the same arguments.
    private static func fallbackName(for testCase: Test.Case) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in String(describing: testCase).utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return "case-" + String(hash, radix: 16)
    }
}
