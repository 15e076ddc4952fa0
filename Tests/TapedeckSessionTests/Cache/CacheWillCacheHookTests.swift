import Foundation
import Testing
import TapedeckSession
import TapedeckTestSupport

/// The will-cache hook (AFNetworking's setDataTaskWillCacheResponseBlock) changes or refuses what is stored.
@Suite struct CacheWillCacheHookTests {
    let harness = CacheHarness()

    @Test func theHookChangesWhatIsStoredButNotWhatTheClientReceives() {
        let seen = Collected<CachedResponse>()
        harness.cache.willCacheResponse = { cached in
            seen.append(cached)
            var changed = cached
            changed.headers.remove(name: "Set-Cookie")
            changed.body = Data("trimmed".utf8)
            return changed
        }
        let answer = harness.receive(harness.response(200, ["Cache-Control": "max-age=60", "Set-Cookie": "a=1"], body: "full"),
                                     for: harness.request())
        #expect(answer.text == "full")
        #expect(answer.headers["Set-Cookie"] == "a=1")
        let hit = harness.lookup().hit
        #expect(hit?.text == "trimmed")
        #expect(hit?.headers["Set-Cookie"] == nil)
        #expect(seen.values.map(\.body) == [Data("full".utf8)])
    }

    @Test func theHookRefusesByReturningNil() {
        harness.cache.willCacheResponse = { $0.url.path == "/secret" ? nil : $0 }
        harness.prime("/secret", ["Cache-Control": "max-age=60"])
        harness.prime("/public", ["Cache-Control": "max-age=60"])
        #expect(harness.lookup("/secret").kind == "miss")
        #expect(harness.lookup("/public").kind == "hit")
    }

    @Test func theHookSeesResponsesA304Updated() {
        harness.prime(["Cache-Control": "no-cache", "ETag": #""v1""#])
        let seen = Collected<String?>()
        harness.cache.willCacheResponse = { cached in
            seen.append(cached.headers["X-Version"])
            return nil
        }
        let lookup = harness.lookup()
        let answer = harness.receive(harness.response(304, ["ETag": #""v1""#, "X-Version": "2"], body: ""), for: harness.request(),
                                     after: lookup)
        #expect(answer.statusCode == 200)
        #expect(seen.values == ["2"])
        #expect(harness.cache.cachedResponse(for: harness.request()) == nil)
    }

    @Test func theHookCanBeCleared() {
        harness.cache.willCacheResponse = { _ in nil }
        #expect(harness.cache.willCacheResponse != nil)
        harness.cache.willCacheResponse = nil
        harness.prime(["Cache-Control": "max-age=60"])
        #expect(harness.lookup().kind == "hit")
    }
}

/// The cache is shared between tasks: its locks neither deadlock nor lose track of what memory and disk hold.
@Suite struct CacheConcurrencyTests {
    @Test func theHookMayCallBackIntoTheCache() {
        let harness = CacheHarness()
        harness.prime("/other", ["Cache-Control": "max-age=60"])
        let cache = harness.cache
        let request = harness.request("/other")
        // Weakly: the cache keeps its hook, so a hook that kept the cache would keep both alive for good (a cycle
        // LeakSanitizer reported).
        cache.willCacheResponse = { [weak cache] cached in cache?.cachedResponse(for: request) == nil ? nil : cached }
        harness.prime(["Cache-Control": "max-age=60"])
        #expect(harness.lookup().kind == "hit")
    }

    @Test func concurrentLookupsStoresAndInvalidationsStayConsistent() async throws {
        try await withTemporaryDirectory { directory in
            let harness = CacheHarness(memoryCapacity: 4000, diskCapacity: 1 << 20, directory: directory.url)
            await withTaskGroup(of: Void.self) { group in
                for worker in 0..<4 {
                    group.addTask {
                        for round in 0..<100 {
                            let path = "/\((worker + round) % 7)"
                            switch round % 4 {
                            case 0: harness.prime(path, ["Cache-Control": "max-age=600"], body: String(repeating: "b", count: 500))
                            case 1: harness.receive(harness.response(204), for: harness.request(path, method: .post))
                            default: _ = harness.lookup(path)
                            }
                        }
                    }
                }
            }
            #expect(harness.cache.currentMemoryUsage <= 4000)
            let files = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.hasSuffix(".cache") }
            let sizes = try files.map { try Data(contentsOf: directory.url.appendingPathComponent($0)).count }
            #expect(harness.cache.currentDiskUsage == sizes.reduce(0, +))
            for index in 0..<7 {
                let inMemoryOrOnDisk = harness.cache.cachedResponse(for: harness.request("/\(index)"))
                let reopened = CacheHarness(memoryCapacity: 0, diskCapacity: 1 << 20, directory: directory.url, clock: harness.clock)
                #expect(reopened.cache.cachedResponse(for: harness.request("/\(index)")) == inMemoryOrOnDisk)
            }
        }
    }
}
