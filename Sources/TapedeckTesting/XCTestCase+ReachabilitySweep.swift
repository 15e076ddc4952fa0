#if Curl
import Foundation
import Tapedeck
import TapedeckCore
import XCTest

extension XCTestCase {
    /// Runs `body` under each network condition of `cases` (offline, Wi-Fi, cellular, and going offline after the
    /// first request, by default; see ``ReachabilitySweep``), each with a fresh simulated network and the current
    /// transport (``TapedeckTest/transport``, e.g. inside `withCassette`) answering as its status implies. An error
    /// out of `body` fails the test, naming the condition, and the next condition runs.
    ///
    /// ```swift
    /// func testSyncUnderEveryNetwork() async throws {
    ///     try await withCassette("sync") { _ in
    ///         await sweepReachability { condition, network, transport in
    ///             let sync = SyncService(transport: transport, reachability: NetworkReachabilityManager(source: .simulated(network)))
    ///             try await sync.run()
    ///         }
    ///     }
    /// }
    /// ```
    public func sweepReachability(
        _ cases: [ReachabilitySweep.Case] = ReachabilitySweep.cases, file: StaticString = #filePath, line: UInt = #line,
        _ body: @Sendable (ReachabilitySweep.Case, SimulatedNetwork, any HTTPTransport) async throws -> Void
    ) async {
        for condition in cases {
            do {
                try await condition.run { network, transport in try await body(condition, network, transport) }
            } catch {
                XCTFail("under \(condition): \(error)", file: file, line: line)
            }
        }
    }
}
#endif
