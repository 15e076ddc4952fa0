import Foundation
import TapedeckCore

/// An HTTP cache with `NSURLRequest`'s cache policies and the rules of RFC 9111 for a private cache, kept in memory
/// and optionally in a directory, like `URLCache(memoryCapacity:diskCapacity:directory:)`.
///
/// A session asks it twice per request: before sending (``lookup(_:policy:)``: answer from the cache, send a
/// conditional request, send as is, or fail) and after receiving (``store(_:for:after:requestTime:responseTime:)``:
/// store the response, merge a `304` into the stored one, or invalidate after an unsafe method). It never sends
/// anything itself. Time comes from ``clock``, so tests move it with a `ManualWallClock`.
///
/// ```swift
/// let cache = HTTPCache(memoryCapacity: 4 << 20, diskCapacity: 50 << 20, directory: cachesDirectory)
/// let lookup = cache.lookup(request, policy: .useProtocolCachePolicy)
/// switch lookup {
/// case .hit(let response):
///     return response
/// case .unavailable:
///     throw URLError(.resourceUnavailable, failingURL: request.url, reason: "not in the cache")
/// case .miss, .validate:
///     let sent = lookup.requestToSend(for: request)!
///     let requestTime = cache.clock.now
///     let response = try await transport.send(sent)
///     return cache.store(response, for: request, after: lookup, requestTime: requestTime, responseTime: cache.clock.now)
/// }
/// ```
///
/// Only `GET` responses with in-memory bodies are stored; `HEAD` and other methods always miss. A `206 Partial
/// Content` is never stored.
public final class HTTPCache: Sendable {
    /// A hook that sees each response before it is stored and returns what to store, or `nil` to store nothing
    /// (AFNetworking's `setDataTaskWillCacheResponseBlock`).
    public typealias WillCacheResponse = @Sendable (CachedResponse) -> CachedResponse?

    /// Variants of one URL kept at most (responses that differ by their `Vary` fields).
    static let maximumVariants = 8

    /// Where ``lookup(_:policy:)`` reads the time.
    public let clock: any WallClock
    /// The in-memory budget in bytes.
    public let memoryCapacity: Int
    /// The on-disk budget in bytes (`0` without a directory).
    public let diskCapacity: Int
    /// The directory entries are written to, if any.
    public let directory: URL?

    private let memory: Locked<MemoryCacheStore>
    /// Lock order: `disk` before `memory`. Every change takes `disk` (even without a directory) so memory and disk
    /// change together; a memory hit takes `memory` alone.
    private let disk: Locked<DiskCacheStore?>
    /// The hook, in a struct: a closure kept directly in the generic `Locked` would be re-abstracted at each access,
    /// and a chain of thunks would grow with every read.
    private struct Hook { var willCache: WillCacheResponse? }
    private let hook = Locked(Hook())

    /// Creates a cache.
    ///
    /// - Parameters:
    ///   - memoryCapacity: bytes kept in memory (4 MiB by default); least recently used entries go first.
    ///   - diskCapacity: bytes kept in `directory`; ignored without one.
    ///   - directory: where entries persist across instances (created when missing), or `nil` for memory only.
    ///   - clock: the time freshness is judged against.
    public init(memoryCapacity: Int = 4 << 20, diskCapacity: Int = 0, directory: URL? = nil, clock: any WallClock = SystemWallClock()) {
        self.clock = clock
        self.memoryCapacity = max(0, memoryCapacity)
        self.directory = directory
        self.diskCapacity = directory == nil ? 0 : max(0, diskCapacity)
        memory = Locked(MemoryCacheStore(capacity: memoryCapacity))
        disk = Locked(directory.map { DiskCacheStore(directory: $0, capacity: diskCapacity) })
    }

    /// Sees each response before it is stored and returns what to store, or `nil` to store nothing. It runs for new
    /// responses and for stored responses a `304` updated; it does not change what the client receives. The cache
    /// keeps the hook, so a hook that calls back into the cache captures it weakly (`{ [weak cache] in … }`).
    public var willCacheResponse: WillCacheResponse? {
        get { hook.withLock { $0.willCache } }
        set { hook.withLock { $0.willCache = newValue } }
    }

    /// Bytes of stored responses in memory.
    public var currentMemoryUsage: Int { memory.withLock { $0.totalCost } }

    /// Bytes of entry files on disk.
    public var currentDiskUsage: Int { disk.withLock { $0?.totalSize ?? 0 } }

    // MARK: Before sending

    /// What to do with `request` under `policy`: answer from the cache, validate, send as is, or fail.
    ///
    /// Under `CachePolicy.useProtocolCachePolicy` a stored response answers while it is fresh (RFC 9111 §4.2) and
    /// the request's `max-age`, `min-fresh` and `max-stale` allow it; a stale one, or one marked `no-cache` (in the
    /// response or the request), is validated when it has an `ETag` or `Last-Modified`. `only-if-cached` turns any
    /// outcome that would reach the network into ``CacheLookup/unavailable``. A request carrying its own
    /// preconditions (`If-None-Match`, …) is passed through as a miss.
    public func lookup(_ request: HTTPRequest, policy: CachePolicy = .useProtocolCachePolicy) -> CacheLookup {
        if policy == .reloadIgnoringLocalCacheData { return .miss }
        let fields = CacheRules.scanRequest(request.headers)
        let directives = fields.directives ? CacheControl(request.headers, readingPragma: true) : nil
        let onlyIfCached = policy == .returnCacheDataDontLoad || directives?.onlyIfCached == true
        guard request.method == .get, let entry = entry(for: request) else { return onlyIfCached ? .unavailable : .miss }
        let age = entry.freshness.currentAge(at: clock.now.timeIntervalSince1970)
        if policy != .useProtocolCachePolicy { return .hit(entry.hitResponse(age: age)) }
        if fields.preconditions { return onlyIfCached ? .unavailable : .miss }
        if entry.freshness.verdict(age: age, request: directives) == .usable { return .hit(entry.hitResponse(age: age)) }
        if onlyIfCached { return .unavailable }
        guard let conditional = CacheRules.conditionalRequest(request, validating: entry.response.headers) else { return .miss }
        return .validate(conditional, entry.response)
    }

    /// The stored response `request` selects (by URL and `Vary`), however fresh or stale, or `nil`.
    public func cachedResponse(for request: HTTPRequest) -> CachedResponse? {
        request.method == .get ? entry(for: request)?.response : nil
    }

    // MARK: After receiving

    /// Hands the cache the response to `request` and returns what the client should receive.
    ///
    /// - A `304` to a ``CacheLookup/validate(_:_:)`` lookup updates the stored header fields (RFC 9111 §4.3.4) and
    ///   returns the stored response (its status and body) with them. A `304` whose validator names another
    ///   representation removes the stored one and is returned as it is. A `304` to the client's own conditional
    ///   request freshens the stored response it names and is returned as it is.
    /// - Any other response to a `GET` is stored when RFC 9111 §3 allows it (after ``willCacheResponse``), replacing
    ///   the variant the request selected, and returned as it is.
    /// - A `2xx` or `3xx` to an unsafe method (`POST`, `PUT`, `DELETE`, `PATCH`, …) invalidates the target URL and
    ///   the same-origin `Location` and `Content-Location` URLs (§4.4).
    ///
    /// - Parameters:
    ///   - response: what the transport answered.
    ///   - request: the request the client made (not the conditional one the cache built).
    ///   - lookup: what ``lookup(_:policy:)`` said for it.
    ///   - requestTime: when the request was sent, by ``clock``.
    ///   - responseTime: when the response arrived, by ``clock``.
    @discardableResult
    public func store(
        _ response: HTTPResponse, for request: HTTPRequest, after lookup: CacheLookup = .miss,
        requestTime: Date, responseTime: Date
    ) -> HTTPResponse {
        if !CacheRules.isSafe(request.method) {
            if (200..<400).contains(response.statusCode) {
                for url in CacheRules.invalidatedURLs(request: request, response: response.head) {
                    change(CacheKey(method: .get, url: url)) { _ in [] }
                }
            }
            return response
        }
        guard request.method == .get else { return response }
        if response.statusCode == 304 {
            return freshen(with: response, for: request, after: lookup, requestTime: requestTime, responseTime: responseTime)
        }
        let directives = CacheControl(response.headers)
        guard case .data(let body) = response.body,
              CacheRules.isStorable(method: request.method, requestHeaders: request.headers, statusCode: response.statusCode,
                                    headers: response.headers, directives: directives)
        else { return response }
        let cached = CachedResponse(
            statusCode: response.statusCode, reasonPhrase: response.head.reasonPhrase,
            headers: CacheRules.storableHeaders(response.headers), body: body, url: response.head.url,
            requestMethod: request.method, requestTime: requestTime, responseTime: responseTime,
            varyingRequestHeaders: CacheRules.varyingFields(of: request.headers, varyNames: CacheRules.varyNames(response.headers) ?? []))
        if let entry = hooked(cached) { replaceVariant(for: request, with: entry) }
        return response
    }

    // MARK: Removing

    /// Removes every stored variant of `request`'s URL.
    public func removeCachedResponse(for request: HTTPRequest) {
        change(CacheKey(method: .get, url: request.url)) { _ in [] }
    }

    /// Removes everything, in memory and on disk.
    public func removeAllCachedResponses() {
        disk.withLock { disk in
            disk?.removeAll()
            memory.withLock { $0.removeAll() }
        }
    }

    // MARK: Internals

    /// The stored entry `request` selects: memory first, then disk (a disk hit is brought into memory).
    private func entry(for request: HTTPRequest) -> CacheEntry? {
        let key = CacheKey(method: request.method, url: request.url)
        let variants = memory.withLock { $0.variants(for: key) } ?? (directory == nil ? nil : variantsLoaded(key))
        return variants?.first { $0.matches(request.headers) }
    }

    /// The variants of `key` from memory or, failing that, from disk into memory.
    private func variantsLoaded(_ key: CacheKey) -> [CacheEntry]? {
        disk.withLock { disk -> [CacheEntry]? in
            if let cached = memory.withLock({ $0.variants(for: key) }) { return cached }
            guard let entries = disk?.read(key)?.compactMap(CacheEntry.init), !entries.isEmpty else { return nil }
            memory.withLock { $0.set(entries, for: key) }
            return entries
        }
    }

    /// Rewrites the variants of `key`, in memory and on disk together.
    private func change(_ key: CacheKey, _ transform: ([CacheEntry]) -> [CacheEntry]) {
        disk.withLock { disk in
            let current = memory.withLock { $0.peek(key) }
                ?? disk?.read(key)?.compactMap(CacheEntry.init) ?? []
            let updated = Array(transform(current).prefix(HTTPCache.maximumVariants))
            if updated.isEmpty, current.isEmpty, disk?.contains(key) != true { return }
            disk?.write(updated.map(\.response), for: key)
            memory.withLock { $0.set(updated, for: key) }
        }
    }

    /// Puts `entry` first among the variants of `request`'s URL, dropping the one the request selected before, or
    /// with `nil`, just drops it.
    private func replaceVariant(for request: HTTPRequest, with entry: CacheEntry?) {
        change(CacheKey(method: request.method, url: request.url)) { variants in
            (entry.map { [$0] } ?? []) + variants.filter { !$0.matches(request.headers) }
        }
    }

    /// `response` after ``willCacheResponse``, as an entry, or `nil` when the hook refused it or it can never match.
    private func hooked(_ response: CachedResponse) -> CacheEntry? {
        let hook = hook.withLock { $0.willCache }
        guard let kept = hook.map({ $0(response) }) ?? response else { return nil }
        return CacheEntry(kept)
    }

    private func freshen(
        with notModified: HTTPResponse, for request: HTTPRequest, after lookup: CacheLookup, requestTime: Date, responseTime: Date
    ) -> HTTPResponse {
        let validated: CachedResponse? = if case .validate(_, let cached) = lookup { cached } else { nil }
        guard let stored = entry(for: request)?.response ?? validated else { return notModified }
        guard CacheRules.notModified(notModified.headers, selects: stored.headers, validated: validated != nil) else {
            if validated != nil { replaceVariant(for: request, with: nil) }
            return notModified
        }
        var updated = stored
        updated.headers = CacheRules.freshenedHeaders(stored.headers, with: notModified.headers)
        updated.requestTime = requestTime
        updated.responseTime = responseTime
        let storable = CacheRules.isStorable(
            method: request.method, requestHeaders: request.headers, statusCode: updated.statusCode,
            headers: updated.headers, directives: CacheControl(updated.headers))
        if storable {
            replaceVariant(for: request, with: hooked(updated))
        } else if CacheControl(updated.headers).noStore {
            replaceVariant(for: request, with: nil)
        }
        if validated == nil { return notModified }
        var answer = updated.httpResponse
        answer.metrics = notModified.metrics
        answer.peerCertificates = notModified.peerCertificates
        return answer
    }
}
