import Foundation
import Testing
import Tapedeck
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport
import TapedeckTesting

/// Each test gets a fresh httpbin-style stub server, stopped when the test ends.
@Suite(.stubServer(httpbin: true)) struct SessionManagerTests {
    let server: StubServer
    let manager: SessionManager

    init() throws {
        server = try #require(TapedeckTest.currentStubServer)
        manager = SessionManager(transport: TapedeckTest.transport)
    }

    @Test func aDataTaskDeliversTheSerializedJSON() async throws {
        let task = manager.dataTask(with: HTTPRequest(url: server.url("/get?x=1")))
        #expect(task.state == .suspended)
        task.resume()
        let result = await task.result
        #expect(result.error == nil)
        #expect(result.response?.statusCode == 200)
        let json = try #require(result.value as? JSONValue)
        #expect(json["args"]?["x"]?.stringValue == "1")
        #expect(task.state == .completed)
        #expect(task.downloadProgress.fractionCompleted == 1.0)
    }

    @Test func completionHandlersRunOnTheCompletionQueue() async throws {
        let queue = DispatchQueue(label: "test.completion")
        queue.setSpecific(key: QueueKey.key, value: "test.completion")
        manager.completionQueue = queue
        let onQueue = Collected<Bool>()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            manager.dataTask(with: HTTPRequest(url: server.url("/get"))) { _ in
                onQueue.append(DispatchQueue.getSpecific(key: QueueKey.key) == "test.completion")
                continuation.resume()
            }.resume()
        }
        #expect(onQueue.values == [true])
    }

    @Test func aBadStatusIsAResponseSerializationErrorWithTheBody() async throws {
        server.route(.get, "/missing", response: .text("no such thing", status: 404))
        let task = manager.dataTask(with: HTTPRequest(url: server.url("/missing")))
        task.resume()
        let error = try #require(await task.result.error) as NSError
        #expect(error.domain == ResponseSerializationError.errorDomain)
        #expect(error.code == -1011)
        #expect(error.userInfo[ResponseSerializationError.dataKey] as? Data == Data("no such thing".utf8))
        #expect(error.userInfo[NSURLErrorFailingURLErrorKey] as? URL == server.url("/missing"))
    }

    @Test func uploadsFromDataFileAndStreamArriveWhole() async throws {
        let payload = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0) })
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.file("upload.bin")
        try payload.write(to: file)
        let stream = HTTPBodyStream(length: Int64(payload.count)) {
            AsyncThrowingStream<Data, any Error> { continuation in
                stride(from: 0, to: payload.count, by: 70_000).forEach {
                    continuation.yield(payload[$0..<min($0 + 70_000, payload.count)])
                }
                continuation.finish()
            }
        }
        manager.responseSerializer = HTTPResponseSerializer()
        for body in [HTTPRequestBody.data(payload), .file(file), .stream(stream)] {
            let fractions = Collected<Double>()
            let task = manager.uploadTask(with: HTTPRequest(method: .put, url: server.url("/put")), from: body,
                                          progress: { fractions.append($0.fractionCompleted) })
            task.resume()
            let result = await task.result
            #expect(result.error == nil)
            #expect(task.uploadProgress.fractionCompleted == 1.0)
            let received = try #require(server.journal.entries.last)
            #expect(received.body == payload)
        }
    }

    /// AFNetworking makes a task's progress objects with no parent (`initWithParent:nil`): a `Progress` current on
    /// the thread that creates the task does not adopt them, so it does not advance with the task.
    @Test func aTasksProgressJoinsNoProgressThatIsCurrentWhenItIsMade() async throws {
        let outer = Progress(totalUnitCount: 2)
        let task = makeUploadTask(while: outer)
        // Foundation completes a current progress's pending units at `resignCurrent` when no child joined meanwhile.
        #expect(outer.completedUnitCount == 1, "the task's progress was adopted by the current one")
        task.resume()
        #expect(await task.result.error == nil)
        #expect(task.uploadProgress.fractionCompleted == 1.0 && task.downloadProgress.fractionCompleted == 1.0)
        #expect(outer.completedUnitCount == 1)
    }

    /// An upload task made while `outer` is the thread's current progress (which only synchronous code may set).
    private func makeUploadTask(while outer: Progress) -> SessionTask {
        outer.becomeCurrent(withPendingUnitCount: 1)
        defer { outer.resignCurrent() }
        return manager.uploadTask(with: HTTPRequest(method: .put, url: server.url("/put")), from: .data(Data(count: 1000)))
    }

    @Test func aDownloadIsMovedToItsDestinationAndTheTemporaryFileRemoved() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let destination = directory.file("download.bin")
        let temporaries = Collected<URL>()
        let moved = Collected<URL>()
        let observer = NotificationCenter.default.addObserver(forName: .tapedeckDownloadDidMoveFile, object: nil, queue: nil) { note in
            if let url = note.userInfo?[SessionNotificationKey.fileURL] as? URL { moved.append(url) }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        let task = manager.downloadTask(with: HTTPRequest(url: server.url("/bytes/200000")), destination: { temporary, response in
            temporaries.append(temporary)
            #expect(response.statusCode == 200)
            return destination
        })
        task.resume()
        let result = await task.result
        #expect(result.error == nil)
        #expect(result.fileURL == destination)
        #expect(try Data(contentsOf: destination) == StubBody.generatedBytes(from: 0, count: 200_000))
        let temporary = try #require(temporaries.values.first)
        #expect(!FileManager.default.fileExists(atPath: temporary.path))
        #expect(moved.values.contains(destination))
        #expect(task.downloadProgress.fractionCompleted == 1.0)
    }

    @Test func aDestinationThatCannotBeWrittenFailsTheTaskAndSaysSo() async throws {
        let failures = Collected<String>()
        let observer = NotificationCenter.default.addObserver(forName: .tapedeckDownloadDidFailToMoveFile, object: nil, queue: nil) { _ in
            failures.append("failed")
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        let task = manager.downloadTask(with: HTTPRequest(url: server.url("/bytes/10")), destination: { _, _ in
            URL(fileURLWithPath: "/nonexistent-\(UUID())/file")
        })
        task.resume()
        #expect(await task.result.error != nil)
        #expect(failures.values == ["failed"])
    }

    @Test func cancellingHalfwayAndResumingContinuesWithARange() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let destination = directory.file("download.bin")
        let total: Int64 = 100 << 20
        // The first request gets half the file at full speed and then nothing for a minute, so the cancel lands at the
        // halfway mark whatever the machine's load; the resumed (ranged) request is answered at full speed.
        server.route(.get, "/large") { request in
            .generatedHonoringRange(of: request, totalLength: total,
                                    pace: request.headers["Range"] == nil ? (Int(total / 2), .seconds(60)) : nil)
        }
        let firstTask = manager.downloadTask(with: HTTPRequest(url: server.url("/large")))
        firstTask.resume()
        // The paced body is chunked (no Content-Length), so progress counts bytes against an unknown total.
        while firstTask.downloadProgress.completedUnitCount < total / 2 { try await Task.sleep(for: .milliseconds(5)) }
        let resumeData = try #require(await firstTask.cancelProducingResumeData())
        #expect(await firstTask.result.error.map { ($0 as? URLError)?.code } == .cancelled)

        let resumed = try manager.downloadTask(withResumeData: resumeData, destination: { _, _ in destination })
        resumed.resume()
        let result = await resumed.result
        #expect(result.error == nil)
        #expect(result.response?.statusCode == 206)
        let ranges = server.journal.entries.compactMap { $0.headers["Range"] }
        #expect(ranges.count == 1)
        let offset = try #require(ranges.first.flatMap { Int64($0.dropFirst("bytes=".count).dropLast()) })
        #expect(offset >= total / 2 && offset < total)
        #expect(try fileSHA256(destination) == generatedSHA256(length: total))
    }

    @Test func aResumedDownloadKeepsItsPartialFileAcrossARedirectHop() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let destination = directory.file("download.bin")
        let total: Int64 = 8 << 20
        server.route(.get, "/moved", response: StubResponse(status: 307, headers: ["Location": "/ranged"], body: .data(Data("moved".utf8))))
        server.route(.get, "/ranged") { request in
            .generatedHonoringRange(of: request, totalLength: total,
                                    pace: request.headers["Range"] == nil ? (Int(total / 2), .seconds(60)) : nil)
        }
        let firstTask = manager.downloadTask(with: HTTPRequest(url: server.url("/moved")))
        firstTask.resume()
        while firstTask.downloadProgress.completedUnitCount < total / 2 { try await Task.sleep(for: .milliseconds(5)) }
        let resumeData = try #require(await firstTask.cancelProducingResumeData())

        let resumed = try manager.downloadTask(withResumeData: resumeData, destination: { _, _ in destination })
        resumed.resume()
        let result = await resumed.result
        #expect(result.error == nil)
        #expect(result.response?.statusCode == 206)
        // The 307 of the resumed request went by without touching the partial file; the 206 continued it.
        #expect(server.journal.entries.map(\.path) == ["/moved", "/ranged", "/moved", "/ranged"])
        #expect(try fileSHA256(destination) == generatedSHA256(length: total))
    }

    @Test func resumingAgainstAServerThatIgnoresRangeRestartsCleanly() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let destination = directory.file("download.bin")
        let total: Int64 = 4 << 20
        server.route(.get, "/norange", response: StubResponse(body: .chunked(ChunkedBody(
            generatedLength: total, chunkSize: 256 << 10, interval: .milliseconds(10)))))
        let firstTask = manager.downloadTask(with: HTTPRequest(url: server.url("/norange")))
        firstTask.resume()
        while firstTask.downloadProgress.completedUnitCount < 512 << 10 { try await Task.sleep(for: .milliseconds(5)) }
        let resumeData = try #require(await firstTask.cancelProducingResumeData())
        let resumed = try manager.downloadTask(withResumeData: resumeData, destination: { _, _ in destination })
        resumed.resume()
        let result = await resumed.result
        #expect(result.response?.statusCode == 200)
        #expect(try Data(contentsOf: destination) == StubBody.generatedBytes(from: 0, count: Int(total)))
    }

    @Test func suspendingAndResumingADownloadContinuesIt() async throws {
        let total: Int64 = 8 << 20
        // The first request gets 1 MiB and then nothing for a minute, so the suspension always lands mid-file; the
        // resumed (ranged) request is answered at full speed.
        server.route(.get, "/pausable") { request in
            .generatedHonoringRange(of: request, totalLength: total,
                                    pace: request.headers["Range"] == nil ? (1 << 20, .seconds(60)) : nil)
        }
        let task = manager.downloadTask(with: HTTPRequest(url: server.url("/pausable")))
        let events = Collected<String>()
        let stream = manager.events()
        let listener = Task {
            for await event in stream {
                switch event {
                case .taskDidResume: events.append("resume")
                case .taskDidSuspend: events.append("suspend")
                case .taskDidComplete: events.append("complete"); return
                default: break
                }
            }
        }
        task.resume()
        while task.downloadProgress.completedUnitCount < 1 << 20 { try await Task.sleep(for: .milliseconds(5)) }
        task.suspend()
        #expect(task.state == .suspended)
        task.resume()
        let result = await task.result
        await listener.value
        #expect(result.error == nil)
        let file = try #require(result.fileURL)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(try Data(contentsOf: file) == StubBody.generatedBytes(from: 0, count: Int(total)))
        #expect(server.journal.entries.contains { $0.headers["Range"] != nil })
        #expect(events.values == ["resume", "suspend", "resume", "complete"])
    }

    @Test func invalidateAndCancelCancelsRunningTasksAndRefusesNewOnes() async throws {
        server.route(.get, "/slow", response: StubResponse(body: .data(Data("late".utf8)), delay: .seconds(5)))
        let running = manager.dataTask(with: HTTPRequest(url: server.url("/slow")))
        running.resume()
        manager.invalidateAndCancel()
        #expect((await running.result.error as? URLError)?.code == .cancelled)
        let refused = manager.dataTask(with: HTTPRequest(url: server.url("/get")))
        refused.resume()
        let error = try #require(await refused.result.error as? URLError)
        #expect(error.code == .cancelled)
        #expect(error.localizedDescription.contains("invalidated"))
    }

    @Test func finishTasksAndInvalidateWaitsForRunningTasks() async throws {
        server.route(.get, "/soon", response: StubResponse(body: .data(Data("ok".utf8)), delay: .milliseconds(200)))
        manager.responseSerializer = HTTPResponseSerializer()
        let running = manager.dataTask(with: HTTPRequest(url: server.url("/soon")))
        running.resume()
        await manager.finishTasksAndInvalidate()
        #expect(running.state == .completed)
        #expect(await running.result.data == Data("ok".utf8))
    }

    @Test func completionNotificationsCarryTheResponseAndData() async throws {
        let infos = Collected<String>()
        let observer = NotificationCenter.default.addObserver(forName: .tapedeckTaskDidComplete, object: nil, queue: nil) { note in
            if note.userInfo?[SessionNotificationKey.response] is HTTPResponseHead,
               note.userInfo?[SessionNotificationKey.responseData] is Data {
                infos.append("complete")
            }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        let task = manager.dataTask(with: HTTPRequest(url: server.url("/json")))
        task.resume()
        _ = await task.result
        #expect(infos.values.contains("complete"))
    }

    @Test func unreadableResumeDataIsAClearError() {
        #expect {
            _ = try manager.downloadTask(withResumeData: Data("junk".utf8))
        } throws: { error in
            "\(error)".contains("not readable Tapedeck resume data")
        }
    }
}

private enum QueueKey {
    static let key = DispatchSpecificKey<String>()
}
