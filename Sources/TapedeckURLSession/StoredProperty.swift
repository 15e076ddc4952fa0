import TapedeckCore

/// Reads a stored property of a FoundationNetworking object that its API does not show (a task's session, a
/// session's task registry), by reflection. Where the property sits in a class's layout (how many superclasses up,
/// which child) is found once per class and remembered, so later reads make only the one child they need.
enum StoredProperty {
    private struct Place: Sendable {
        var depth: Int
        var index: Int
    }

    private static let places = Locked<[Key: Place?]>([:])

    private struct Key: Hashable, Sendable {
        var type: ObjectIdentifier
        var label: String
    }

    /// The value of the stored property `label` of `object` (an optional unwrapped), or `nil` when it has none.
    static func value(_ label: String, of object: Any) -> Any? {
        let key = Key(type: ObjectIdentifier(type(of: object) as Any.Type), label: label)
        let known = places.withLock { $0[key] }
        let place: Place?
        if let known {
            place = known
        } else {
            place = find(label, in: object)
            places.withLock { $0[key] = place }
        }
        guard let place else { return nil }
        var mirror = Mirror(reflecting: object)
        for _ in 0..<place.depth {
            guard let parent = mirror.superclassMirror else { return nil }
            mirror = parent
        }
        let children = mirror.children
        guard place.index < children.count else { return nil }
        let child = children[children.index(children.startIndex, offsetBy: place.index)]
        guard child.label == label else { return nil }
        return unwrap(child.value)
    }

    private static func find(_ label: String, in object: Any) -> Place? {
        var mirror: Mirror? = Mirror(reflecting: object)
        var depth = 0
        while let current = mirror {
            for (index, child) in current.children.enumerated() where child.label == label {
                return Place(depth: depth, index: index)
            }
            mirror = current.superclassMirror
            depth += 1
        }
        return nil
    }

    /// `value` without its optional wrapper; `nil` for an empty optional.
    private static func unwrap(_ value: Any) -> Any? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first?.value
    }
}
