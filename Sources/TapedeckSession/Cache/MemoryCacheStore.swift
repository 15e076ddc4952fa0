/// Stored responses in memory, by primary key, within a byte budget: when an insertion passes it, the least recently
/// used keys are evicted. Each key holds the variants `Vary` tells apart, most recent first.
///
/// Recency is a doubly linked list threaded through an array of slots by index, so a hit moves its key to the front
/// without allocating.
struct MemoryCacheStore: Sendable {
    /// The byte budget.
    let capacity: Int
    /// Bytes in use, by ``CacheEntry/cost``.
    private(set) var totalCost = 0

    private struct Slot {
        var key: CacheKey
        var variants: [CacheEntry]
        var cost: Int
        var previous: Int
        var next: Int
    }

    private var index: [CacheKey: Int] = [:]
    private var slots: [Slot] = []
    private var freeSlots: [Int] = []
    /// Most recently used slot, or -1.
    private var head = -1
    /// Least recently used slot, or -1.
    private var tail = -1

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// How many keys are stored.
    var count: Int { index.count }

    /// The variants stored for `key`, marking it most recently used.
    mutating func variants(for key: CacheKey) -> [CacheEntry]? {
        guard let slot = index[key] else { return nil }
        moveToFront(slot)
        return slots[slot].variants
    }

    /// The variants stored for `key`, leaving recency alone.
    func peek(_ key: CacheKey) -> [CacheEntry]? {
        index[key].map { slots[$0].variants }
    }

    /// Stores `variants` for `key` as the most recently used, evicting others to stay within capacity. An empty list,
    /// or one larger than the whole capacity, removes the key instead.
    mutating func set(_ variants: [CacheEntry], for key: CacheKey) {
        let cost = variants.reduce(0) { $0 + $1.cost }
        guard !variants.isEmpty, cost <= capacity else {
            remove(key)
            return
        }
        if let slot = index[key] {
            totalCost += cost - slots[slot].cost
            slots[slot].variants = variants
            slots[slot].cost = cost
            moveToFront(slot)
        } else {
            let slot = Slot(key: key, variants: variants, cost: cost, previous: -1, next: -1)
            let position: Int
            if let reused = freeSlots.popLast() {
                slots[reused] = slot
                position = reused
            } else {
                slots.append(slot)
                position = slots.count - 1
            }
            index[key] = position
            totalCost += cost
            linkAtFront(position)
        }
        while totalCost > capacity, tail != -1, tail != index[key] {
            remove(slots[tail].key)
        }
    }

    /// Removes `key` and its variants.
    mutating func remove(_ key: CacheKey) {
        guard let slot = index.removeValue(forKey: key) else { return }
        unlink(slot)
        totalCost -= slots[slot].cost
        slots[slot].variants = []
        slots[slot].cost = 0
        freeSlots.append(slot)
    }

    /// Removes everything.
    mutating func removeAll() {
        self = MemoryCacheStore(capacity: capacity)
    }

    private mutating func moveToFront(_ slot: Int) {
        guard head != slot else { return }
        unlink(slot)
        linkAtFront(slot)
    }

    private mutating func linkAtFront(_ slot: Int) {
        slots[slot].previous = -1
        slots[slot].next = head
        if head != -1 { slots[head].previous = slot }
        head = slot
        if tail == -1 { tail = slot }
    }

    private mutating func unlink(_ slot: Int) {
        let previous = slots[slot].previous, next = slots[slot].next
        if previous != -1 { slots[previous].next = next } else { head = next }
        if next != -1 { slots[next].previous = previous } else { tail = previous }
        slots[slot].previous = -1
        slots[slot].next = -1
    }
}
