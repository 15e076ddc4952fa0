import Foundation
import Testing
import TapedeckTestSupport
@testable import TapedeckSession

/// Saving a store to its JSON file and loading it back, and the errors of a file that is not a cookie file.
@Suite struct CookiePersistenceTests {
    let clock = ManualWallClock()

    private func filledStore() -> CookieStore {
        let store = CookieStore(clock: clock)
        store.store(setCookieHeaders: [
            "id=a3fWa; Domain=example.com; Path=/app; Max-Age=3600; Secure; HttpOnly; SameSite=Lax",
            "theme=\"dark blue\"; Expires=Fri, 01 Jan 2100 00:00:00 GMT",
            "session=s1",
        ], for: url("https://www.example.com/app/index.html"))
        clock.advance(by: .milliseconds(1500))
        _ = store.cookieHeader(for: url("https://example.com/app"))  // touches `id` only
        return store
    }

    @Test func aRoundTripKeepsEveryFieldOfPersistentCookies() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = filledStore()
        let file = directory.file("cookies.json")
        try store.save(to: file)

        let loaded = try CookieStore(contentsOf: file, clock: clock)
        #expect(loaded.allCookies == store.allCookies.filter { $0.expires != nil })
        #expect(loaded.allCookies.map(\.name).sorted() == ["id", "theme"])
        #expect(loaded.cookieHeader(for: url("https://www.example.com/app/x")) == "id=a3fWa; theme=\"dark blue\"")
    }

    @Test func sessionCookiesAreSavedOnlyWhenAsked() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = filledStore()
        let file = directory.file("cookies.json")
        try store.save(to: file, includingSessionCookies: true)
        let loaded = try CookieStore(contentsOf: file, clock: clock)
        #expect(loaded.allCookies == store.allCookies)
    }

    @Test func cookiesThatExpiredSinceSavingAreNotLoaded() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.file("cookies.json")
        try filledStore().save(to: file)
        clock.advance(by: .seconds(3600))
        #expect(try CookieStore(contentsOf: file, clock: clock).allCookies.map(\.name) == ["theme"])
    }

    @Test func theFileIsVersionedJSONAndSavingReplacesItWithoutLeftovers() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.file("cookies.json")
        try Data("old".utf8).write(to: file)
        try filledStore().save(to: file)

        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        #expect(json["format"] as? String == "tapedeck-cookies")
        #expect(json["version"] as? Int == 1)
        let first = try #require((json["cookies"] as? [[String: Any]])?.first)
        #expect(first["expires"] as? String == "2026-01-01T01:00:00.000Z")
        #expect(first["lastAccessed"] as? String == "2026-01-01T00:00:01.500Z")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["cookies.json"])
    }

    @Test func aMissingFileIsUnreadable() throws {
        let missing = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/cookies.json")
        let error = try #require(throws: CookieStoreError.self) { try CookieStore(contentsOf: missing) }
        guard case .unreadableFile(let path, _) = error else { Issue.record("\(error)"); return }
        #expect(path == missing.path)
        #expect(error.localizedDescription.hasPrefix("cannot read cookie file \(missing.path): "),
                "\(error.localizedDescription)")
        #expect((error as NSError).domain == "com.tapedeck.cookies")
        #expect((error as NSError).code == 1)
    }

    /// H9's rule, as for cassettes: a symbolic link is written through, not replaced by a file.
    @Test func savingThroughASymbolicLinkKeepsTheLink() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let target = directory.file("real.json")
        let link = directory.file("cookies.json")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "real.json")
        try filledStore().save(to: link)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "real.json")
        #expect(try CookieStore(contentsOf: target, clock: clock).allCookies.map(\.name).sorted() == ["id", "theme"])
    }

    @Test func savingIntoAMissingDirectoryFails() throws {
        let target = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/cookies.json")
        let error = try #require(throws: CookieStoreError.self) { try filledStore().save(to: target) }
        #expect(error.errorCode == 4)
        #expect(error.localizedDescription.contains(target.path))
    }

    static let valid = #"""
        {"format": "tapedeck-cookies", "version": 1, "cookies": [
          {"name": "a", "value": "1", "domain": "example.com", "hostOnly": true, "path": "/", "secure": false,
           "httpOnly": false, "created": "2026-01-01T00:00:00.000Z", "lastAccessed": "2026-01-01T00:00:00.000Z"},
          {"name": "b", "value": "2", "domain": "example.com", "hostOnly": false, "path": "/", "secure": true,
           "httpOnly": false, "created": "2026-01-01T00:00:00.000Z", "lastAccessed": "2026-01-01T00:00:00.000Z",
           "expires": "2030-01-01T00:00:00.000Z", "sameSite": "Strict"}
        ]}
        """#

    @Test(arguments: [
        (#""expires": "2030-01-01T00:00:00.000Z""#, #""expires": "soon""#, "cookies[1].expires", "\"soon\""),
        (#""name": "b""#, #""name": """#, "cookies[1].name", "is empty"),
        (#""name": "b""#, #""name": 7"#, "cookies[1].name", "expected a string"),
        (#""name": "b", "#, "", "cookies[1].name", "is missing"),
        (#""path": "/", "secure": true"#, #""path": "x", "secure": true"#, "cookies[1].path", "does not start with /"),
        (#""hostOnly": true"#, #""hostOnly": null"#, "cookies[0].hostOnly", "expected true or false"),
        (#""domain": "example.com", "hostOnly": true"#, #""domain": ".", "hostOnly": true"#, "cookies[0].domain",
         "is empty"),
        (#""value": "1""#, #""value": "1\r\nX: y""#, "cookies[0].value", "control character"),
        (#""format": "tapedeck-cookies""#, #""format": "netscape""#, "format", "\"netscape\""),
        (#""version": 1"#, #""version": "1""#, "version", "expected an integer"),
        (#""cookies": ["#, #""cookies": "none", "x": ["#, "cookies", "expected an array"),
        (#"]}"#, #"]"#, "", "not valid JSON"),
    ])
    func aCorruptFileSaysWhatIsWrongAndWhere(_ original: String, _ corrupted: String, _ field: String,
                                             _ reason: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.file("cookies.json")
        var text = Self.valid
        let range = try #require(text.range(of: original))
        text.replaceSubrange(range, with: corrupted)
        try Data(text.utf8).write(to: file)

        let error = try #require(throws: CookieStoreError.self) { try CookieStore(contentsOf: file, clock: clock) }
        guard case .corruptFile(let path, let actualField, let actualReason) = error else {
            Issue.record("expected a corrupt file error, got \(error)")
            return
        }
        #expect(path == file.path)
        #expect(actualField == field)
        #expect(actualReason.contains(reason), "\(actualReason)")
        #expect(error.localizedDescription.contains(file.path))
        #expect(field.isEmpty || error.localizedDescription.contains("at \(field):"))
    }

    @Test func aNewerVersionIsReportedAsSuch() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.file("cookies.json")
        try Data(#"{"format": "tapedeck-cookies", "version": 2, "jar": {}}"#.utf8).write(to: file)
        let error = try #require(throws: CookieStoreError.self) { try CookieStore(contentsOf: file, clock: clock) }
        #expect(error == .unsupportedVersion(path: file.path, version: 2))
        #expect(error.localizedDescription.contains("version 2"))
    }

    @Test func theValidFixtureLoads() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.file("cookies.json")
        try Data(Self.valid.utf8).write(to: file)
        let store = try CookieStore(contentsOf: file, clock: clock)
        #expect(store.cookieHeader(for: url("https://www.example.com/")) == "b=2")
        #expect(store.cookieHeader(for: url("https://example.com/")) == "a=1; b=2")
    }
}
