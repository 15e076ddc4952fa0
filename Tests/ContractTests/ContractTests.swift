import Foundation
import Testing
import Tapedeck
import TapedeckCassette
import TapedeckCurl
import TapedeckServices
import TapedeckStubServer
import TapedeckTestSupport

/// The ways the same client code reaches the provider.
enum ContractTransport: String, CaseIterable, CustomTestStringConvertible, Sendable {
    /// CurlTransport against the stub server, over loopback.
    case live
    /// A cassette recording what CurlTransport gets from the stub server.
    case recording
    /// The cassette replayed in process, with the stub server stopped.
    case replay
    /// The cassette served over real sockets by another stub server, with the recording one stopped.
    case servedCassette

    var testDescription: String { rawValue }
}

/// Runs every scenario in order through a network layer and returns what each observed.
private func runScenarios(over transport: any HTTPTransport, server baseURL: URL, folder: URL) async throws -> [Outcome] {
    let simulated = SimulatedNetwork(status: .reachableViaWiFi)
    let reachability = NetworkReachabilityManager(source: .simulated(simulated))
    let network = try NetworkManager(config: NetworkConfig(
        dataBaseURL: baseURL.appendingPathComponent("api/"), uploadBaseURL: baseURL.appendingPathComponent("upload/"),
        // Short enough for the timeout scenario to end soon, long enough that a sanitizer-built run on a loaded machine
        // does not time out the 150 KB multipart upload.
        downloadBaseURL: baseURL, timeoutInterval: 1.5), transport: transport, reachability: reachability)
    await simulated.settle()
    var outcomes: [Outcome] = []
    for scenario in ContractScenario.all {
        outcomes.append(await scenario.run(network, folder, simulated))
    }
    reachability.stopMonitoring()
    return outcomes
}

@Suite struct ContractTests {
    /// One scenario set, every transport: the outcomes (statuses, content types, decoded bodies, error domains and
    /// codes, progress reaching 1.0) must be exactly the expected ones everywhere.
    @Test(arguments: ContractTransport.allCases)
    func everyTransportGivesTheSameOutcomes(transport kind: ContractTransport) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let folder = directory.url
        let cassette = directory.cassette("contract.json")
        let server = try ContractServer.start()
        defer { server.stop() }

        let outcomes: [Outcome]
        switch kind {
        case .live:
            outcomes = try await runScenarios(over: server.transport(), server: server.baseURL, folder: folder)
        case .recording, .replay, .servedCassette:
            let recorder = try openCassette(cassette, mode: .all, upstream: server.transport())
            let recorded = try await runScenarios(over: recorder, server: server.baseURL, folder: folder)
            try recorder.finish()
            server.stop()
            switch kind {
            case .replay:
                let player = try openCassette(cassette, mode: .replay)
                outcomes = try await runScenarios(over: player, server: server.baseURL, folder: folder)
                let summary = try player.finish(requireAllPlayed: true)
                #expect(summary.unplayed.isEmpty)
            case .servedCassette:
                let serving = try StubServer()
                defer { serving.stop() }
                try serving.serve(cassette: cassette, origin: server.baseURL)
                outcomes = try await runScenarios(over: serving.transport(), server: serving.baseURL, folder: folder)
                try serving.finishCassette(requireAllPlayed: true)
            default:
                outcomes = recorded
            }
        }
        for (scenario, outcome) in zip(ContractScenario.all, outcomes) {
            #expect(outcome == scenario.expected, "\(scenario) over \(kind.rawValue)")
        }
    }
}
