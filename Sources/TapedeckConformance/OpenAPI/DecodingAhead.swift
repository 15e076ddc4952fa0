import Foundation

/// A node's value decoded on a second thread, for the ``DocumentDecoder`` that reaches the node later: decoding an
/// OpenAPI document is most of `serve --openapi`'s start-up, and its paths are independent of each other, so a second
/// thread decodes them from the last one back while the first thread decodes the document forward.
///
/// The value (or error) is the one the first thread would have decoded: the same decoder over the same node at the
/// same coding path (a node that aliases repeat elsewhere is decoded there anew, so that an error names its place).
/// The thread that decodes ahead takes no value decoded ahead (a path that aliases another would otherwise wait for
/// itself), so only the first thread ever waits, and never for itself.
final class DecodedAhead: @unchecked Sendable {
    /// The type the value was decoded as, and where; a decoder asking for another type, or at another place,
    /// decodes the node itself.
    let type: ObjectIdentifier
    let codingPath: [String]
    /// Guards `state`.
    private let condition = NSCondition()
    private var state = State.open

    /// Who decodes the node: nobody yet, the first thread itself, the thread ahead (until its result is in).
    private enum State {
        case open
        case takenByFirst
        case takenAhead
        case decoded(Result<Any, any Error>)
    }

    init(_ type: Any.Type, at codingPath: [any CodingKey]) {
        self.type = ObjectIdentifier(type)
        self.codingPath = codingPath.map(\.stringValue)
    }

    /// Whether this is the value a decoder of `type` at `codingPath` asks for.
    func isValue(of type: Any.Type, at codingPath: [any CodingKey]) -> Bool {
        self.type == ObjectIdentifier(type) && self.codingPath.elementsEqual(codingPath.lazy.map(\.stringValue))
    }

    /// For the thread ahead: whether the node is its to decode (the first thread has not reached it).
    func takeAhead() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard case .open = state else { return false }
        state = .takenAhead
        return true
    }

    func fulfil(_ result: Result<Any, any Error>) {
        condition.lock()
        state = .decoded(result)
        condition.broadcast()
        condition.unlock()
    }

    /// For the first thread: the value decoded ahead (waiting for it if it is being decoded), or `nil` when the node
    /// is the first thread's to decode after all, because the thread ahead has not reached it.
    func valueOrTake() throws -> Any? {
        condition.lock()
        if case .open = state { state = .takenByFirst }
        while case .takenAhead = state { condition.wait() }
        let state = state
        condition.unlock()
        guard case .decoded(let result) = state else { return nil }
        return try result.get()
    }
}

extension DocumentDecoder {
    /// `type` decoded from `node`, with the members of the object at `node[member]` decoded as `Member` by a second
    /// thread from the last one back meanwhile, when there are enough of them and a second processor to decode them.
    ///
    /// ```swift
    /// let document = try DocumentDecoder.decode(OpenAPI.Document.self, from: tree,
    ///                                           decodingAhead: "paths", as: OpenAPI.PathItem.Map.Value.self)
    /// ```
    static func decode<Value: Decodable, Member: Decodable>(
        _ type: Value.Type, from node: DocumentNode, decodingAhead member: String, as memberType: Member.Type
    ) throws -> Value {
        guard ProcessInfo.processInfo.activeProcessorCount > 1, case .object(_, let members) = node.content,
              let parent = members[member], case .object(let names, let children) = parent.content,
              names.count >= minimumMembers else {
            return try decode(type, from: node)
        }
        // The thread ahead takes the members from the last one back while the first thread decodes the document
        // forward, each decoding what the other has not reached: the split falls where their work meets.
        var aheads: [(node: DocumentNode, codingPath: [any CodingKey], ahead: DecodedAhead)] = []
        for name in names {
            let child = children[name]!
            guard child.ahead == nil else { continue }   // a node that aliases repeat
            let codingPath: [any CodingKey] = [DocumentKey(member), DocumentKey(name)]
            let ahead = DecodedAhead(memberType, at: codingPath)
            child.ahead = ahead
            aheads.append((child, codingPath, ahead))
        }
        let work = Unchecked(aheads)
        let thread = Thread {
            for (node, codingPath, ahead) in work.value.reversed() {
                guard ahead.takeAhead() else { break }
                ahead.fulfil(Result { try DocumentDecoder(node: node, codingPath: codingPath, takesAhead: false).decode(Member.self) })
            }
        }
        thread.start()
        defer {
            // The thread ahead is done with the tree before it is handed back: what it has not taken it never will.
            for (node, _, ahead) in aheads {
                _ = try? ahead.valueOrTake()
                node.ahead = nil
            }
        }
        return try decode(type, from: node)
    }

    /// Fewer members than this are decoded on one thread: a second thread costs more than it saves.
    private static var minimumMembers: Int { 16 }
}

/// A value handed to another thread that the handing thread no longer touches until that thread is done with it.
private struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
