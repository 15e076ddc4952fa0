import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TapedeckCore
@testable import TapedeckURLSession

/// A configuration made by `.tapedeck(transport:)` keeps its transport only as long as it, a copy of it, a session made
/// from one, or a request in flight can use it; the bound subclasses are reused, so binding many transports one after
/// another keeps a bounded number of them.
@Suite struct TransportBindingLifetimeTests {
    private static let url = URL(string: "http://binding.invalid/")!

    @Test func invalidatedSessionsReleaseTheirTransports() async throws {
        var watched: [Watched] = []
        for round in 0..<100 {
            let transport = NamedTransport("t\(round)")
            let session = URLSession(configuration: .tapedeck(transport: transport))
            let (data, _) = try await session.data(from: Self.url)
            #expect(String(decoding: data, as: UTF8.self) == "t\(round)")
            session.finishTasksAndInvalidate()
            watched.append(Watched(transport))
        }
        try await Self.waitForRelease(of: watched)
        #expect(watched.filter { $0.transport != nil }.count == 0, "transports kept after their sessions were invalidated")
    }

    @Test func bindingThousandsOfTransportsKeepsTheSubclassesBounded() throws {
        let madeBefore = BindingSlots.classCount
        var classes = Set<ObjectIdentifier>()
        for round in 0..<2_000 {
            let configuration = URLSessionConfiguration.tapedeck(transport: NamedTransport("t\(round)"))
            classes.insert(ObjectIdentifier(try #require(configuration.protocolClasses?.first)))
        }
        // One subclass per binding before; now the most bindings alive at once. These are bound one after another,
        // but the other suites bind theirs meanwhile (27 subclasses in all seen beside the whole URLSession suite).
        #expect(classes.count < 100)
        #expect(BindingSlots.classCount - madeBefore < 100)
    }

    @Test func copiesAndSessionsCarryTheTransportAfterTheConfigurationIsGone() async throws {
        var configuration: URLSessionConfiguration? = .tapedeck(transport: NamedTransport("carried"))
        let first = URLSession(configuration: try #require(configuration))
        configuration = nil
        let second = URLSession(configuration: first.configuration)
        first.finishTasksAndInvalidate()
        defer { second.finishTasksAndInvalidate() }
        let (data, _) = try await second.data(from: Self.url)
        #expect(String(decoding: data, as: UTF8.self) == "carried")
    }

    @Test func aRequestInFlightOutlivesItsInvalidatedSession() async throws {
        var watched: [Watched] = []
        let answer: Task<String, any Error>
        do {
            let transport = GatedTransport()
            watched.append(Watched(transport))
            let session = URLSession(configuration: .tapedeck(transport: transport))
            answer = Task { String(decoding: try await session.data(from: Self.url).0, as: UTF8.self) }
            for await _ in transport.arrived.stream { break }
            session.finishTasksAndInvalidate()
            transport.gate.continuation.yield()
        }
        #expect(try await answer.value == "gated")
        try await Self.waitForRelease(of: watched)
        #expect(watched[0].transport == nil, "the transport was kept after its last request ended")
    }

    @Test func aReleasedBindingLeavesItsSubclassUnbound() throws {
        var transport: NamedTransport? = NamedTransport("once")
        weak let releasedTransport = transport
        var binding: TransportBinding? = TransportBinding(
            transport: try #require(transport), additionalHeaders: [:], defaultTimeout: nil, cache: nil, configuration: nil
        )
        transport = nil
        let protocolClass: AnyClass = try #require(binding?.protocolClass)
        #expect(TransportBinding.bound(to: protocolClass) === binding)
        binding = nil
        // A freed subclass is reused by the next binding, which a test running beside this one may make at once: what
        // must hold is that the subclass no longer leads to this binding's transport, released with it.
        #expect(releasedTransport == nil)
        #expect((TransportBinding.bound(to: protocolClass)?.transport as? NamedTransport)?.name != "once")
    }

    #if canImport(FoundationNetworking)
    @Test func aSubclassListedWithoutItsBindingReachesNoTransport() async throws {
        let configuration = URLSessionConfiguration.tapedeck(transport: NamedTransport("bound"))
        let bare = URLSessionConfiguration.ephemeral
        bare.protocolClasses = configuration.protocolClasses
        let session = URLSession(configuration: bare)
        defer { session.finishTasksAndInvalidate() }
        let error = await #expect(throws: URLError.self) { try await session.data(from: Self.url) }
        #expect(error?.localizedDescription.contains("URLSessionConfiguration.tapedeck(transport:)") == true)
    }
    #endif

    /// Bounded: a session's work queue lets go of it after its last block, a moment after the request ended.
    private static func waitForRelease(of watched: [Watched]) async throws {
        for _ in 0..<500 where watched.contains(where: { $0.transport != nil }) {
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}

private struct Watched {
    weak var transport: (any HTTPTransport & AnyObject)?
    init(_ transport: any HTTPTransport & AnyObject) { self.transport = transport }
}

/// Answers every request with its name.
private final class NamedTransport: HTTPTransport {
    let name: String
    init(_ name: String) { self.name = name }

    func send(_ request: HTTPRequest, onEvent: HTTPEventHandler?) async throws -> HTTPResponse {
        HTTPResponse(head: HTTPResponseHead(statusCode: 200, url: request.url), body: .data(Data(name.utf8)))
    }
}

/// Answers "gated" once the gate opens, after telling that the request arrived.
private final class GatedTransport: HTTPTransport {
    let arrived = AsyncStream<Void>.makeStream()
    let gate = AsyncStream<Void>.makeStream()

    func send(_ request: HTTPRequest, onEvent: HTTPEventHandler?) async throws -> HTTPResponse {
        arrived.continuation.yield()
        for await _ in gate.stream { break }
        return HTTPResponse(head: HTTPResponseHead(statusCode: 200, url: request.url), body: .data(Data("gated".utf8)))
    }
}
