import Foundation
import Testing
@testable import TapedeckSession
import TapedeckTestSupport
import TapedeckCore

/// The gate that keeps the events of a followed or answered hop from the caller, without I/O.
@Suite struct HopEventGateTests {
    private let url = URL(string: "http://h/")!

    private func head(_ status: Int, location: String? = nil) -> HTTPResponseHead {
        var headers = HTTPHeaders()
        if let location { headers.add(name: "Location", value: location) }
        return HTTPResponseHead(statusCode: status, headers: headers, url: url)
    }

    private func statuses(_ events: [HTTPTransportEvent]) -> [String] {
        events.map { event in
            switch event {
            case .responseHead(let head): "head \(head.statusCode)"
            case .bodyChunk(let data): "chunk \(data.count)"
            case .uploadProgress: "upload"
            case .downloadProgress: "download"
            case .completed(let response): "completed \(response.statusCode)"
            }
        }
    }

    @Test func aFinalResponsesEventsPassAtOnce() {
        let seen = Locked<[HTTPTransportEvent]>([])
        let gate = HopEventGate.hop({ event in seen.withLock { $0.append(event) } }, followsRedirects: true)
        gate.handle(.uploadProgress(TransferProgress(completed: 1, total: 1)))
        gate.handle(.responseHead(head(200)))
        gate.handle(.bodyChunk(Data("ok".utf8)))
        #expect(statuses(seen.value) == ["upload", "head 200", "chunk 2"])
    }

    @Test func aRedirectsEventsWaitAndAreDroppedUnlessReleased() {
        let seen = Locked<[HTTPTransportEvent]>([])
        let followed = HopEventGate.hop({ event in seen.withLock { $0.append(event) } }, followsRedirects: true)
        followed.handle(.responseHead(head(302, location: "/next")))
        followed.handle(.bodyChunk(Data("moved".utf8)))
        #expect(seen.value.isEmpty)

        let stopped = HopEventGate.hop({ event in seen.withLock { $0.append(event) } }, followsRedirects: true)
        stopped.handle(.responseHead(head(302, location: "/next")))
        stopped.handle(.bodyChunk(Data("moved".utf8)))
        stopped.release()
        #expect(statuses(seen.value) == ["head 302", "chunk 5"])
    }

    @Test func aRedirectPassesWhenTheSessionDoesNotFollowAndAChallengeWaitsEitherWay() {
        let seen = Locked<[HTTPTransportEvent]>([])
        let gate = HopEventGate.hop({ event in seen.withLock { $0.append(event) } }, followsRedirects: false)
        gate.handle(.responseHead(head(302, location: "/next")))
        #expect(statuses(seen.value) == ["head 302"])
        let challenged = HopEventGate.hop({ event in seen.withLock { $0.append(event) } }, followsRedirects: false)
        challenged.handle(.responseHead(head(401)))
        #expect(statuses(seen.value) == ["head 302"])
    }

    @Test func anAttemptGateHoldsBackOnlyFailures() {
        let seen = Locked<[HTTPTransportEvent]>([])
        let failed = HopEventGate.attempt({ event in seen.withLock { $0.append(event) } }, isFailure: { $0.statusCode >= 400 })
        failed.handle(.responseHead(head(503)))
        #expect(seen.value.isEmpty)
        let succeeded = HopEventGate.attempt({ event in seen.withLock { $0.append(event) } }, isFailure: { $0.statusCode >= 400 })
        succeeded.handle(.responseHead(head(200)))
        #expect(statuses(seen.value) == ["head 200"])
    }
}
