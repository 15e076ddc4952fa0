// Three objects are kept for the whole run in a global array, each inside a multi-payload enum's case (`enum`), or
// the same structs kept directly (`struct`): nothing leaks in either. Swift stores a multi-payload enum's case in the
// spare bits of the payload, here the high bits of the object pointer, so the word in memory is no longer the
// object's address. A LeakSanitizer report for `enum` and none for `struct` means LSan does not recognize such
// references, so a "direct leak" of an object held in an enum payload is not a leak by itself.
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

let inEnums = CommandLine.arguments.dropFirst().first == "enum"
for index in 0..<3 {
    let wrapper = Wrapper(text: "pattern \(index)", box: Box(index))
    if inEnums { keptInEnums.append(.matches(wrapper)) } else { keptDirectly.append(wrapper) }
}
keptInEnums.append(.equal("text"))
let total = keptInEnums.reduce(0) { sum, condition in
    if case .matches(let wrapper) = condition { return sum + wrapper.box.value + 1 }
    return sum
} + keptDirectly.reduce(0) { $0 + $1.box.value + 1 }
print("kept \(total == 6 ? "all three" : "a wrong number of") objects")
