/// Loops of subschemas that apply to the same value (`$ref`, `allOf`, `anyOf`, `oneOf`, `not`): checking or
/// generating a value would go round them forever, so ``SchemaCompiler`` refuses them. A loop through `properties`,
/// `items` or any other keyword that steps into the value is a recursive schema, and fine.
enum SchemaLoops {
    /// The nodes of one in-place loop reachable from nodes `start...` (the first node again at the end), or `nil`.
    /// Nodes before `start` were checked before and reach no loop.
    static func inPlaceLoop(in program: SchemaProgram, from start: Int) -> [Int]? {
        let count = program.nodes.count
        guard start < count else { return nil }
        // 0: not visited, 1: on the current path, 2: done (reaches no loop).
        var state = [UInt8](repeating: 0, count: count)
        for index in 0..<start { state[index] = 2 }
        for first in start..<count where state[first] == 0 {
            // An explicit stack (node, next edge to follow) so that a long chain of `$ref`s needs no deep recursion.
            var path: [(node: Int, edges: [Int], next: Int)] = [(first, edges(of: program.nodes[first]), 0)]
            state[first] = 1
            while let top = path.last {
                guard top.next < top.edges.count else {
                    state[top.node] = 2
                    path.removeLast()
                    continue
                }
                let target = top.edges[top.next]
                path[path.count - 1].next += 1
                switch state[target] {
                case 0:
                    state[target] = 1
                    path.append((target, edges(of: program.nodes[target]), 0))
                case 1:
                    let from = path.firstIndex { $0.node == target } ?? 0
                    return path[from...].map(\.node) + [target]
                default:
                    continue
                }
            }
        }
        return nil
    }

    /// The subschemas `node` applies to the same value it is given.
    private static func edges(of node: SchemaNode) -> [Int] {
        var edges = node.allOf + node.anyOf + node.oneOf
        if let reference = node.reference { edges.append(reference) }
        if let not = node.not { edges.append(not) }
        return edges
    }
}
