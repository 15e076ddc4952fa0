import Foundation
import Testing
@testable import TapedeckSession
import TapedeckTestSupport

/// The in-memory store: a byte budget kept by evicting the least recently used URLs.
@Suite struct MemoryCacheStorageTests {
    private func body(_ size: Int) -> String { String(repeating: "x", count: size) }

    @Test func theLeastRecentlyUsedURLIsEvictedWhenTheBudgetIsPassed() {
        let harness = CacheHarness(memoryCapacity: 3600)
        for path in ["/1", "/2", "/3"] { harness.prime(path, ["Cache-Control": "max-age=600"], body: body(1000)) }
        #expect(harness.lookup("/1").kind == "hit")  // /2 is now the least recently used
        harness.prime("/4", ["Cache-Control": "max-age=600"], body: body(1000))
        #expect(harness.lookup("/2").kind == "miss")
        for path in ["/1", "/3", "/4"] { #expect(harness.lookup(path).kind == "hit") }
        #expect(harness.cache.currentMemoryUsage <= 3600)
        #expect(harness.cache.currentMemoryUsage > 3000)
    }

    @Test func aResponseLargerThanTheWholeBudgetIsNotKept() {
        let harness = CacheHarness(memoryCapacity: 2000)
        harness.prime("/small", ["Cache-Control": "max-age=600"], body: body(100))
        harness.prime("/big", ["Cache-Control": "max-age=600"], body: body(5000))
        #expect(harness.lookup("/big").kind == "miss")
        #expect(harness.lookup("/small").kind == "hit")
    }

    @Test func replacingAnEntryRecountsItsSize() {
        let harness = CacheHarness()
        harness.prime(["Cache-Control": "max-age=600"], body: body(1000))
        let before = harness.cache.currentMemoryUsage
        harness.prime(["Cache-Control": "max-age=600"], body: body(10))
        #expect(harness.cache.currentMemoryUsage == before - 990)
    }

    @Test func theStoreReusesSlotsAndKeepsRecencyThroughRemovals() throws {
        let entry = { (size: Int) in
            CacheEntry(CachedResponse(statusCode: 200, headers: [:], body: Data(count: size), url: CacheHarness.url("/"),
                                      requestTime: .distantPast, responseTime: .distantPast))!
        }
        let cost = entry(100).cost
        var store = MemoryCacheStore(capacity: cost * 3)
        let keys = (0..<5).map { CacheKey(method: .get, url: CacheHarness.url("/\($0)")) }
        for key in keys.prefix(3) { store.set([entry(100)], for: key) }
        store.remove(keys[1])
        store.set([entry(100)], for: keys[3])
        _ = store.variants(for: keys[0])
        store.set([entry(100)], for: keys[4])  // evicts keys[2], the least recently used
        #expect(store.count == 3)
        #expect(store.peek(keys[2]) == nil)
        #expect(store.peek(keys[0]) != nil && store.peek(keys[3]) != nil && store.peek(keys[4]) != nil)
        #expect(store.totalCost == cost * 3)
        store.set([], for: keys[0])
        #expect(store.count == 2)
        #expect(store.totalCost == cost * 2)
    }
}

/// The on-disk store: one file per URL, surviving the cache instance, within a byte budget, and never trusting a
/// damaged file.
@Suite struct DiskCacheStorageTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    private func makeHarness(memory: Int = 1 << 20, disk: Int = 1 << 20) -> CacheHarness {
        CacheHarness(memoryCapacity: memory, diskCapacity: disk, directory: directory.url)
    }

    private func entryFiles() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: directory.url, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "cache" }
    }

    @Test func entriesPersistAcrossInstances() throws {
        defer { directory.remove() }
        let first = makeHarness()
        first.prime(["Cache-Control": "max-age=600", "ETag": #""v1""#, "Vary": "Accept"], body: "persisted",
                    requestHeaders: ["Accept": "text/plain"])
        first.prime(["Cache-Control": "max-age=600", "Vary": "Accept"], body: "json", requestHeaders: ["Accept": "application/json"])
        #expect(try entryFiles().count == 1)
        #expect(first.cache.currentDiskUsage == (try entryFiles().first.map { try Data(contentsOf: $0).count }))

        let clock = ManualWallClock(start: first.clock.now.addingTimeInterval(100))
        let second = CacheHarness(memoryCapacity: 1 << 20, diskCapacity: 1 << 20, directory: directory.url, clock: clock)
        let hit = second.lookup(headers: ["Accept": "text/plain"]).hit
        #expect(hit?.text == "persisted")
        #expect(hit?.headers["ETag"] == #""v1""#)
        #expect(hit?.headers["Age"] == "100")
        #expect(second.lookup(headers: ["Accept": "application/json"]).hit?.text == "json")
        #expect(second.cache.cachedResponse(for: second.request(headers: ["Accept": "text/plain"])) ==
                first.cache.cachedResponse(for: first.request(headers: ["Accept": "text/plain"])))
    }

    @Test func withoutMemoryEveryLookupReadsTheDisk() {
        defer { directory.remove() }
        let harness = makeHarness(memory: 0)
        harness.prime(["Cache-Control": "max-age=600"], body: "disk only")
        #expect(harness.cache.currentMemoryUsage == 0)
        #expect(harness.lookup().hit?.text == "disk only")
        #expect(harness.lookup().hit?.text == "disk only")
    }

    @Test(arguments: ["garbage", "truncated", "flipped", "empty", "other version"])
    func aDamagedEntryFileIsIgnoredAndRemoved(damage: String) throws {
        defer { directory.remove() }
        makeHarness().prime(["Cache-Control": "max-age=600"], body: String(repeating: "payload ", count: 50))
        let file = try #require(try entryFiles().first)
        var data = try Data(contentsOf: file)
        switch damage {
        case "garbage": data = Data("not a cache entry at all".utf8)
        case "truncated": data = data.prefix(data.count / 2)
        case "flipped": data[data.count - 10] ^= 0xFF
        case "empty": data = Data()
        default: data[4] = 9
        }
        try data.write(to: file)

        let reopened = makeHarness()
        #expect(reopened.lookup().kind == "miss")
        #expect(try entryFiles().isEmpty)
        #expect(reopened.cache.currentDiskUsage == 0)
        reopened.prime(["Cache-Control": "max-age=600"], body: "again")
        #expect(makeHarness().lookup().hit?.text == "again")
    }

    @Test func theDiskBudgetEvictsTheLeastRecentlyUsedFiles() throws {
        defer { directory.remove() }
        let body = String(repeating: "x", count: 1000)
        let harness = makeHarness(memory: 0, disk: 2600)
        for path in ["/1", "/2"] { harness.prime(path, ["Cache-Control": "max-age=600"], body: body) }
        #expect(harness.lookup("/1").kind == "hit")
        harness.prime("/3", ["Cache-Control": "max-age=600"], body: body)
        #expect(harness.lookup("/2").kind == "miss")
        #expect(harness.lookup("/1").kind == "hit")
        #expect(harness.lookup("/3").kind == "hit")
        #expect(try entryFiles().count == 2)
        #expect(harness.cache.currentDiskUsage <= 2600)
    }

    @Test func invalidationAndRemovalDeleteTheFiles() throws {
        defer { directory.remove() }
        let harness = makeHarness()
        for path in ["/a", "/b"] { harness.prime(path, ["Cache-Control": "max-age=600"]) }
        harness.receive(harness.response(200), for: harness.request("/a", method: .delete))
        #expect(try entryFiles().count == 1)
        harness.cache.removeAllCachedResponses()
        #expect(try entryFiles().isEmpty)
        #expect(self.makeHarness().lookup("/b").kind == "miss")
    }

    @Test func leftoverTemporaryFilesAreRemovedAndForeignFilesLeftAlone() throws {
        defer { directory.remove() }
        try Data("half".utf8).write(to: directory.file(".tmp-123"))
        try Data("half".utf8).write(to: directory.file(".0123456789abcdef.cache.812.77.tmp"))
        try Data("mine".utf8).write(to: directory.file("notes.txt"))
        try Data("mine".utf8).write(to: directory.file(".notes.txt.812.77.tmp"))
        let harness = makeHarness()
        #expect(!FileManager.default.fileExists(atPath: directory.file(".tmp-123").path))
        #expect(!FileManager.default.fileExists(atPath: directory.file(".0123456789abcdef.cache.812.77.tmp").path))
        harness.cache.removeAllCachedResponses()
        #expect(FileManager.default.fileExists(atPath: directory.file("notes.txt").path))
        #expect(FileManager.default.fileExists(atPath: directory.file(".notes.txt.812.77.tmp").path))
    }

    @Test func theFileFormatRoundTripsAndChecksItsKey() throws {
        defer { directory.remove() }
        let response = CachedResponse(
            statusCode: 203, reasonPhrase: "Non-Authoritative", headers: ["A": "1", "a": "2"], body: Data([0, 1, 255]),
            url: CacheHarness.url("/ü?q=1"), requestTime: Date(timeIntervalSince1970: 1.5),
            responseTime: Date(timeIntervalSince1970: 2.25), varyingRequestHeaders: ["Accept": "*/*"])
        let file = CacheFileFormat.encode(key: "GET x", [response, response])
        let decoded = try #require(CacheFileFormat.decode(file))
        #expect(decoded.key == "GET x")
        #expect(decoded.responses == [response, response])
        #expect(CacheFileFormat.decode(file + Data([0])) == nil)
    }
}
