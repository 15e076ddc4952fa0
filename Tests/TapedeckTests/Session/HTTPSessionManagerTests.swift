import Foundation
import Testing
import Tapedeck
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport
import TapedeckTesting

/// AFHTTPSessionManager's behaviours: base URL joining, the verbs in both styles, and serialization failures that
/// create no task.
@Suite struct HTTPSessionManagerBaseURLTests {
    @Test(arguments: [
        ("http://example.com/v1", "http://example.com/v1/"),
        ("http://example.com/v1/", "http://example.com/v1/"),
        ("http://example.com", "http://example.com"),
        ("http://example.com/", "http://example.com/"),
    ])
    func aBasePathGetsATrailingSlash(base: String, normalized: String) {
        let manager = HTTPSessionManager(baseURL: URL(string: base)!)
        #expect(manager.baseURL?.absoluteString == normalized)
    }

    @Test(arguments: [
        ("foo", "http://example.com/v1/foo"),
        ("foo?bar=baz", "http://example.com/v1/foo?bar=baz"),
        ("foo/", "http://example.com/v1/foo/"),
        ("/foo", "http://example.com/foo"),
        ("/foo?bar=baz", "http://example.com/foo?bar=baz"),
        ("/foo/", "http://example.com/foo/"),
        ("../foo", "http://example.com/foo"),
        ("http://example2.com/", "http://example2.com/"),
        ("https://example2.com/x?y=1", "https://example2.com/x?y=1"),
    ])
    func relativePathsResolveByRFC3986(path: String, expected: String) throws {
        let manager = HTTPSessionManager(baseURL: URL(string: "http://example.com/v1")!)
        #expect(try manager.url(for: path).absoluteString == expected)
    }

    @Test func withoutABaseURLOnlyAbsoluteURLsAreAccepted() throws {
        let manager = HTTPSessionManager()
        #expect(try manager.url(for: "http://127.0.0.1/x").absoluteString == "http://127.0.0.1/x")
        #expect(throws: RequestSerializationError.self) { try manager.url(for: "relative/path") }
    }
}

/// Each test gets a fresh httpbin-style stub server, stopped when the test ends. Its connections stay open for ten
/// minutes: on two cores under a sanitizer, a streamed upload body can wait on the starved task pool for longer than
/// the default minute, and the server would cut it off (seen as "Empty reply from server" and "Broken pipe").
@Suite(.stubServer(.init(connectionTimeout: 600), httpbin: true)) struct HTTPSessionManagerTests {
    let server: StubServer
    let manager: HTTPSessionManager

    init() throws {
        server = try #require(TapedeckTest.currentStubServer)
        manager = HTTPSessionManager(baseURL: server.url("/"), transport: TapedeckTest.transport)
    }

    @Test func getPutsParametersInTheQueryAndDecodesJSON() async throws {
        let result = try await manager.get("get", parameters: ["page": 2, "tags": ["a", "b"]])
        let json = try #require(result.value as? JSONValue)
        #expect(json["args"]?["page"]?.stringValue == "2")
        #expect(json["url"]?.stringValue?.contains("page=2&tags%5B%5D=a&tags%5B%5D=b") == true)
        #expect(result.response?.statusCode == 200)
    }

    @Test func postSendsAFormBody() async throws {
        let result = try await manager.post("post", parameters: ["name": "Ada", "language": "Swift"])
        let json = try #require(result.value as? JSONValue)
        #expect(json["form"]?["name"]?.stringValue == "Ada")
        #expect(json["headers"]?["Content-Type"]?.stringValue == "application/x-www-form-urlencoded")
    }

    @Test func aJSONRequestSerializerSendsJSON() async throws {
        manager.requestSerializer = JSONRequestSerializer()
        let result = try await manager.put("put", parameters: ["nested": ["ok": true]])
        let json = try #require(result.value as? JSONValue)
        #expect(json["json"]?["nested"]?["ok"]?.boolValue == true)
    }

    @Test func deleteAndHeadCarryParametersInTheURIAndPatchInTheBody() async throws {
        let deleted = try #require(try await manager.delete("delete", parameters: ["id": 7]).value as? JSONValue)
        #expect(deleted["args"]?["id"]?.stringValue == "7")
        let head = try await manager.head("get", parameters: ["q": "x"])
        #expect(head.response?.statusCode == 200)
        #expect(server.journal.entries.last?.query == "q=x")
        let patched = try #require(try await manager.patch("patch", parameters: ["field": "v"]).value as? JSONValue)
        #expect(patched["form"]?["field"]?.stringValue == "v")
    }

    @Test func aMultipartPostSendsFieldsAndFiles() async throws {
        let progress = Collected<Double>()
        let result = try await manager.post("post", parameters: ["caption": "me"], constructingBody: { form in
            form.append(Data("PNGDATA".utf8), name: "avatar", fileName: "me.png", mimeType: "image/png")
        }, progress: { progress.append($0.fractionCompleted) })
        let json = try #require(result.value as? JSONValue)
        #expect(json["form"]?["caption"]?.stringValue == "me")
        #expect(json["files"]?["avatar"]?.stringValue == "PNGDATA")
        #expect(progress.values.last == 1.0)
    }

    @Test func anAbsoluteURLReplacesTheBase() async throws {
        let other = try StubServer.httpbin()
        defer { other.stop() }
        let result = try await manager.get(other.url("/get").absoluteString)
        #expect(result.response?.url.port == Int(other.port))
        #expect(server.journal.entries.isEmpty)
    }

    @Test func closuresReportSuccessOnTheCompletionQueue() async throws {
        let queue = DispatchQueue(label: "test.http-session")
        queue.setSpecific(key: onTestQueue, value: true)
        manager.completionQueue = queue
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<(Bool, JSONValue?), Never>) in
            let task = manager.get("get", parameters: ["a": "1"], success: { _, object in
                continuation.resume(returning: (DispatchQueue.getSpecific(key: onTestQueue) == true, object as? JSONValue))
            }, failure: { _, error in
                Issue.record("unexpected failure: \(error)")
                continuation.resume(returning: (false, nil))
            })
            #expect(task != nil)
        }
        #expect(outcome.0)
        #expect(outcome.1?["args"]?["a"]?.stringValue == "1")
    }

    @Test func closuresReportAnHTTPFailureWithItsTask() async throws {
        let failed = await withCheckedContinuation { (continuation: CheckedContinuation<(SessionTask?, NSError), Never>) in
            manager.get("status/500", success: { _, _ in
                Issue.record("a 500 must fail")
            }, failure: { task, error in
                continuation.resume(returning: (task, error as NSError))
            })
        }
        #expect(failed.0 != nil)
        #expect(failed.0?.response?.statusCode == 500)
        #expect(failed.1.domain == ResponseSerializationError.errorDomain)
        #expect(failed.1.code == -1011)
    }

    /// A task started with closures keeps its completion closure, which reaches the task; once it has run, nothing
    /// keeps the task or its manager (LeakSanitizer reported both as leaked through that cycle).
    @Test func aFinishedClosureTaskKeepsNeitherItselfNorItsManager() async throws {
        var manager: HTTPSessionManager? = HTTPSessionManager(baseURL: server.url("/"), transport: TapedeckTest.transport)
        weak let weakManager = manager
        weak var weakTask: SessionTask?
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            weakTask = manager?.get("get", success: { _, _ in continuation.resume() }, failure: { _, error in
                Issue.record("unexpected failure: \(error)")
                continuation.resume()
            })
        }
        manager = nil
        // The transfer's own task lets go of the session task just after the closure ran: bounded wait for that.
        for _ in 0..<500 where weakTask != nil || weakManager != nil {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(weakTask == nil)
        #expect(weakManager == nil)
    }

    @Test func aRequestThatCannotBeSerializedCreatesNoTaskAndFailsAsynchronously() async throws {
        manager.requestSerializer = JSONRequestSerializer()
        // The completion queue is held until the call has returned, so a failure delivered synchronously would be
        // seen before `returned` is set.
        let queue = DispatchQueue(label: "test.held")
        manager.completionQueue = queue
        queue.suspend()
        let calledBeforeReturn = Collected<Bool>()
        let returned = Collected<Bool>()
        let error = await withCheckedContinuation { (continuation: CheckedContinuation<NSError, Never>) in
            let task = manager.post("post", parameters: ["bad": .number(.nan)], success: { _, _ in
                Issue.record("an unserializable request must not succeed")
            }, failure: { task, error in
                calledBeforeReturn.append(returned.values.isEmpty)
                #expect(task == nil)
                continuation.resume(returning: error as NSError)
            })
            returned.append(true)
            #expect(task == nil)
            queue.resume()
        }
        #expect(calledBeforeReturn.values == [false])
        #expect(error.domain == RequestSerializationError.errorDomain)
        #expect(error.code == -1016)
        #expect(server.journal.entries.isEmpty)
    }

    @Test func asyncVerbsThrowTheSerializationErrorBeforeSendingAnything() async throws {
        manager.requestSerializer = JSONRequestSerializer()
        await #expect(throws: RequestSerializationError.self) {
            try await manager.post("post", parameters: ["bad": .number(.infinity)])
        }
        #expect(server.journal.entries.isEmpty)
    }
}

private let onTestQueue = DispatchSpecificKey<Bool>()
