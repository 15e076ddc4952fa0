import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Tapedeck
import TapedeckCassette
import TapedeckStubServer
import TapedeckTestSupport
import TapedeckURLSession

/// Cassettes recorded and replayed through URLSession, and shared with Tapedeck's own session manager.
@Suite struct CassetteInteropTests {
    @Test func recordThroughURLSessionThenReplayWithTheServerStopped() async throws {
        try await withTemporaryDirectory { directory in
            let server = try StubServer.httpbin()
            let getURL = server.url("/get?a=1")
            let postURL = server.url("/post")
            var post = URLRequest(url: postURL)
            post.httpMethod = "POST"
            post.httpBody = Data("payload".utf8)

            let recorder = try openCassette(directory.cassette(), mode: .all, upstream: server.transport())
            let recording = makeSession(recorder)
            let (recordedGet, recordedGetResponse) = try await recording.data(from: getURL)
            let (recordedPost, _) = try await recording.data(for: post)
            recording.finishTasksAndInvalidate()
            try recorder.finish()
            server.stop()

            let player = try openCassette(directory.cassette(), mode: .replay)
            let replaying = makeSession(player)
            defer { replaying.finishTasksAndInvalidate() }
            let (replayedGet, replayedGetResponse) = try await replaying.data(from: getURL)
            let (replayedPost, _) = try await replaying.data(for: post)
            #expect(replayedGet == recordedGet)
            #expect(replayedPost == recordedPost)
            #expect(try echo(replayedPost)["data"] as? String == "payload")
            let recordedHTTP = try #require(recordedGetResponse as? HTTPURLResponse)
            let replayedHTTP = try #require(replayedGetResponse as? HTTPURLResponse)
            #expect(replayedHTTP.statusCode == recordedHTTP.statusCode)
            #expect(replayedHTTP.value(forHTTPHeaderField: "Content-Type") == recordedHTTP.value(forHTTPHeaderField: "Content-Type"))
        }
    }

    @Test func recordedBySessionManagerReplayedThroughURLSession() async throws {
        try await withTemporaryDirectory { directory in
            let server = try StubServer.httpbin()
            let base = server.url("/")
            let recorder = try openCassette(directory.cassette(), mode: .all, upstream: server.transport())
            let api = HTTPSessionManager(baseURL: base, transport: recorder)
            let recorded = try await api.get("get")
            try recorder.finish()
            server.stop()

            let player = try openCassette(directory.cassette(), mode: .replay)
            let session = makeSession(player)
            defer { session.finishTasksAndInvalidate() }
            let (data, response) = try await session.data(from: server.url("/get"))
            #expect((response as? HTTPURLResponse)?.statusCode == recorded.response?.statusCode)
            #expect(data == recorded.data)
        }
    }

    @Test func recordedThroughURLSessionReplayedBySessionManager() async throws {
        try await withTemporaryDirectory { directory in
            let server = try StubServer.httpbin()
            let recorder = try openCassette(directory.cassette(), mode: .all, upstream: server.transport())
            let session = makeSession(recorder)
            let (data, response) = try await session.data(from: server.url("/get"))
            session.finishTasksAndInvalidate()
            try recorder.finish()
            server.stop()

            let player = try openCassette(directory.cassette(), mode: .replay)
            let api = HTTPSessionManager(baseURL: server.url("/"), transport: player)
            let replayed = try await api.get("get")
            #expect(replayed.response?.statusCode == (response as? HTTPURLResponse)?.statusCode)
            #expect(replayed.data == data)
        }
    }
}
