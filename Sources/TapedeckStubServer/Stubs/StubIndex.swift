import TapedeckCore

/// The registered stubs, filed so a request finds its candidates without scanning every stub: stubs with an exact
/// path sit in a dictionary keyed by that path; the rest (templates, regular expressions, any path) sit in one
/// short list that every request checks. Pure value type, no locking.
struct StubIndex {
    struct Entry {
        let stub: Stub
        /// Order of registration: later stubs win ties.
        let sequence: Int

        /// Whether this entry is tried before `other` (smaller priority number, then more recent).
        func precedes(_ other: Entry) -> Bool {
            stub.priority != other.stub.priority ? stub.priority < other.stub.priority : sequence > other.sequence
        }
    }

    private var byPath: [String: [Entry]] = [:]
    private var unindexed: [Entry] = []
    private var pathOfID: [Stub.ID: String?] = [:]
    private var nextSequence = 0
    /// Every stub, in registration order: kept as stubs come and go, so that a near-miss report (every unmatched
    /// request) takes it as it is instead of gathering, sorting and copying the stubs each time.
    private(set) var all: [Stub] = []

    /// How many stubs are registered.
    var count: Int { pathOfID.count }

    /// Adds `stub`, replacing any stub with the same ID.
    mutating func add(_ stub: Stub) {
        remove(id: stub.id)
        nextSequence += 1
        let entry = Entry(stub: stub, sequence: nextSequence)
        let key = stub.matcher.path?.exactPath
        pathOfID[stub.id] = .some(key)
        if let key {
            byPath[key, default: []].append(entry)
        } else {
            unindexed.append(entry)
        }
        all.append(stub)
    }

    /// Removes the stub with `id`; whether there was one.
    @discardableResult
    mutating func remove(id: Stub.ID) -> Bool {
        guard let key = pathOfID.removeValue(forKey: id) else { return false }
        if let key {
            byPath[key]?.removeAll { $0.stub.id == id }
            if byPath[key]?.isEmpty == true { byPath[key] = nil }
        } else {
            unindexed.removeAll { $0.stub.id == id }
        }
        all.removeAll { $0.id == id }
        return true
    }

    mutating func removeAll() {
        self = StubIndex()
    }

    /// The stubs that could match a request for `path` (as sent) or `decodedPath`, best first. Only their exact
    /// path has been checked.
    func candidates(path: String, decodedPath: String) -> [Entry] {
        var found = byPath[path] ?? []
        if decodedPath != path, let decoded = byPath[decodedPath] { found += decoded }
        if !unindexed.isEmpty { found += unindexed }
        if found.count > 1 { found.sort { $0.precedes($1) } }
        return found
    }

    /// The stub with `id`.
    func stub(id: Stub.ID) -> Stub? {
        guard let key = pathOfID[id] else { return nil }
        return (key.flatMap { byPath[$0] } ?? unindexed).first { $0.stub.id == id }?.stub
    }
}
