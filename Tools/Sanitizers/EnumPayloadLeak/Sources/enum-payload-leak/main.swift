import Foundation

// Three objects are kept for the whole run in a global array, each inside a multi-payload enum's case (`enum`), or
// the same structs kept directly (`struct`), or three 40-byte `Data` values (`data`): nothing leaks in any. Swift
// stores a multi-payload enum's case in the spare bits of the payload, here the high bits of the object pointer, so
// the word in memory is no longer the object's address. Reports for `enum` and none for `struct` mean LSan does not
// recognize such references, so a "direct leak" of an object held in an enum payload is not a leak by itself; and
// `Data` keeps its storage in such an enum (`Data._Representation`), so every `Data` kept alive is reported too.
// `static` keeps three `Data` values in a `static let`, whose one-time initializer (a `…_WZ` symbol) allocates them:
// the same blind spot, and the reason Tools/Sanitizers/lsan-suppressions.txt suppresses leaks allocated under `_WZ`.
final class Box {
    let value: Int
    init(_ value: Int) { self.value = value }
}

struct Wrapper {
    let text: String
    let box: Box
}

enum Condition {
    case equal(String)
    case matches(Wrapper)
    case present
}

nonisolated(unsafe) var keptInEnums: [Condition] = []
nonisolated(unsafe) var keptDirectly: [Wrapper] = []
nonisolated(unsafe) var keptData: [Data] = []
enum Assets {
    static let blobs = (0..<3).map { Data(repeating: UInt8($0), count: 40) }
}

let mode = CommandLine.arguments.dropFirst().first ?? ""
for index in 0..<3 {
    let wrapper = Wrapper(text: "pattern \(index)", box: Box(index))
    switch mode {
    case "enum": keptInEnums.append(.matches(wrapper))
    case "data": keptData.append(Data(repeating: UInt8(index), count: 40))
    case "static": keptData.append(Assets.blobs[index])
    default: keptDirectly.append(wrapper)
    }
}
keptInEnums.append(.equal("text"))
let total = keptInEnums.reduce(0) { sum, condition in
    if case .matches(let wrapper) = condition { return sum + wrapper.box.value + 1 }
    return sum
} + keptDirectly.reduce(0) { $0 + $1.box.value + 1 } + keptData.reduce(0) { $0 + Int($1[0]) + 1 }
print("kept \(total == 6 ? "all three" : "a wrong number of") objects")
