import TapedeckCore
import Foundation

/// The cookies of a store, indexed by domain so that a lookup costs a few hash probes (one per label of the request's
/// host) and a look at the cookies of those domains, however many other cookies there are.
///
/// A value type with no lock: ``CookieStore`` keeps one behind its mutex.
struct CookieIndex {
    struct Entry {
        var cookie: Cookie
        /// Insertion order, kept by a replacement like the creation time: breaks ties between equal creation times.
        let sequence: UInt64
        /// `name=value`, as the `Cookie` header carries it.
        let pair: String

        init(cookie: Cookie, sequence: UInt64) {
            self.cookie = cookie
            self.sequence = sequence
            pair = cookie.headerPair
        }
    }

    /// A cookie selected for a request: where it is, and what the `Cookie` header's order needs.
    struct Match {
        let bucket: Dictionary<Substring, [Entry]>.Index
        let position: Int
        let pathLength: Int
        let created: Date
        let sequence: UInt64
        let pairLength: Int

        /// §5.4 step 2: longer paths first, then earlier creation times (then insertion order).
        static func precedes(_ left: Match, _ right: Match) -> Bool {
            if left.pathLength != right.pathLength { return left.pathLength > right.pathLength }
            if left.created != right.created { return left.created < right.created }
            return left.sequence < right.sequence
        }
    }

    /// Cookies by ``Cookie/domain``; host-only and domain cookies of one domain share a bucket.
    private var buckets: [Substring: [Entry]] = [:]
    private var nextSequence: UInt64 = 0
    private(set) var count = 0

    /// Stores `cookie`, replacing the one with the same name, domain and path. With `keepingCreationTime`, the
    /// replacement takes the old cookie's creation time (§5.3 step 11). An expired cookie only removes.
    mutating func insert(_ cookie: Cookie, keepingCreationTime: Bool, now: Date) {
        var cookie = cookie
        let old = remove(name: cookie.name, domain: cookie.domain, path: cookie.path)
        guard !cookie.isExpired(at: now) else { return }
        if keepingCreationTime, let old { cookie.created = old.cookie.created }
        let sequence: UInt64
        if let old { sequence = old.sequence } else {
            sequence = nextSequence
            nextSequence += 1
        }
        buckets[Substring(cookie.domain), default: []].append(Entry(cookie: cookie, sequence: sequence))
        count += 1
    }

    /// Removes the cookie with this identity and returns it.
    @discardableResult
    mutating func remove(name: String, domain: String, path: String) -> Entry? {
        guard let bucket = buckets.index(forKey: Substring(domain)),
              let position = buckets.values[bucket].firstIndex(where: {
                  $0.cookie.name == name && $0.cookie.path == path
              })
        else { return nil }
        let entry = buckets.values[bucket].remove(at: position)
        if buckets.values[bucket].isEmpty { buckets.remove(at: bucket) }
        count -= 1
        return entry
    }

    mutating func removeAll() {
        buckets = [:]
        count = 0
    }

    /// Removes every cookie that expired at or before `now`; returns how many.
    @discardableResult
    mutating func removeExpired(now: Date) -> Int {
        removeExpired(now: now, from: Array(buckets.keys))
    }

    @discardableResult
    private mutating func removeExpired(now: Date, from keys: [Substring]) -> Int {
        var removed = 0
        for key in keys {
            guard let bucket = buckets.index(forKey: key) else { continue }
            let before = buckets.values[bucket].count
            buckets.values[bucket].removeAll { $0.cookie.isExpired(at: now) }
            removed += before - buckets.values[bucket].count
            if buckets.values[bucket].isEmpty { buckets.remove(at: bucket) }
        }
        count -= removed
        return removed
    }

    /// Every cookie in the order first stored.
    var all: [Entry] {
        buckets.values.joined().sorted { $0.sequence < $1.sequence }
    }

    /// The unexpired cookies `target` gets (§5.4 step 1), in header order. Expired cookies met on the way are
    /// removed.
    mutating func matches(for target: CookieRequestTarget, now: Date) -> [Match] {
        var matches: [Match] = []
        matches.reserveCapacity(16)
        var expiredIn: [Substring] = []
        let host = target.host
        var domain = host[...]
        while true {
            if let bucket = buckets.index(forKey: domain) {
                let isHost = domain.startIndex == host.startIndex
                // Read in place: copying a Cookie out would retain and release each of its strings.
                let sawExpired = buckets.values[bucket].withUnsafeBufferPointer { entries in
                    var sawExpired = false
                    for position in entries.indices {
                        guard isHost || !entries[position].cookie.hostOnly,
                              !entries[position].cookie.secure || target.isSecure,
                              let pathLength = CookiePath.matchLength(requestPath: target.path,
                                                                      cookiePath: entries[position].cookie.path)
                        else { continue }
                        if let expires = entries[position].cookie.expires, expires <= now {
                            sawExpired = true
                            continue
                        }
                        matches.append(Match(bucket: bucket, position: position, pathLength: pathLength,
                                             created: entries[position].cookie.created,
                                             sequence: entries[position].sequence,
                                             pairLength: entries[position].pair.utf8.count))
                    }
                    return sawExpired
                }
                if sawExpired { expiredIn.append(domain) }
            }
            // Parent domains, never for an IP address (§5.1.3).
            guard !target.hostIsIPAddress, let dot = domain.utf8.firstIndex(of: UInt8(ascii: ".")) else { break }
            domain = domain[domain.utf8.index(after: dot)...]
            if domain.isEmpty { break }
        }
        if !expiredIn.isEmpty {
            // Positions change when expired cookies go: look the matches up again afterwards.
            removeExpired(now: now, from: expiredIn)
            return self.matches(for: target, now: now)
        }
        if matches.count > 1 { matches.sort(by: Match.precedes) }
        return matches
    }

    /// The `Cookie` header of `matches` (from ``matches(for:now:)``, with no change since), whose last-access time
    /// becomes `now`; `nil` when there are none.
    mutating func header(_ matches: [Match], touchingAt now: Date) -> String? {
        guard !matches.isEmpty else { return nil }
        let length = matches.reduce(0) { $0 + $1.pairLength } + 2 * (matches.count - 1)
        return String(unsafeUninitializedCapacity: length) { output in
            var written = 0
            for match in matches {
                if written > 0 {
                    output[written] = UInt8(ascii: ";")
                    output[written + 1] = UInt8(ascii: " ")
                    written += 2
                }
                buckets.values[match.bucket][match.position].cookie.lastAccessed = now
                written += Self.copyUTF8(of: buckets.values[match.bucket][match.position].pair,
                                         into: UnsafeMutableBufferPointer(rebasing: output[written...]))
            }
            return written
        }
    }

    private static func copyUTF8(of text: String, into output: UnsafeMutableBufferPointer<UInt8>) -> Int {
        if let copied = text.utf8.withContiguousStorageIfAvailable({ bytes in
            guard let source = bytes.baseAddress, let target = output.baseAddress else { return 0 }
            target.initialize(from: source, count: bytes.count)
            return bytes.count
        }) {
            return copied
        }
        return output.initialize(fromContentsOf: text.utf8)
    }

    /// The cookies of `matches`.
    func cookies(_ matches: [Match]) -> [Cookie] {
        matches.map { buckets.values[$0.bucket][$0.position].cookie }
    }
}
