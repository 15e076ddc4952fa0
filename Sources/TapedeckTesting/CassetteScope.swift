import Foundation
import TapedeckCassette
import TapedeckCore
#if Curl
import Tapedeck
import TapedeckCurl
#else
import TapedeckURLSession
#endif

/// Runs a test body with a cassette and collects what went wrong with it, for the Swift Testing trait and the
/// XCTest helpers to report as test failures at the test's own source location.
///
/// ```swift
/// let failures = await CassetteScope(cassette: url, mode: .replay).run { transport in
///     _ = try await transport.send(HTTPRequest(url: URL(string: "https://api.example.com/me")!))
/// }
/// for failure in failures { print(failure) }
/// ```
public struct CassetteScope: Sendable {
    /// The cassette file.
    public var cassette: URL
    /// The record mode; `TAPEDECK_RECORD_MODE` overrides it.
    public var mode: RecordMode
    /// Matching, redaction, timing and faults.
    public var configuration: CassetteConfiguration
    /// Whether interactions that were never replayed fail the test.
    public var requireAllPlayed: Bool
    /// The transport that records: by default the current stub server's transport when there is one (so
    /// `.stubServer(…)` then `.cassette(…)` records from the stub), else a new `CurlTransport` (with the package's
    /// `Curl` trait, on by default) or, without it, a new `URLSessionTransport` (Foundation's URLSession).
    public var upstream: (any HTTPTransport)?
    /// Where `TAPEDECK_RECORD_MODE` is read.
    public var environment: [String: String]
    /// What happens to the recording when the test fails (``FailedTestRecording/discard`` by default).
    public var onTestFailure: FailedTestRecording

    /// Creates a scope.
    public init(
        cassette: URL, mode: RecordMode = .replay, configuration: CassetteConfiguration = CassetteConfiguration(),
        requireAllPlayed: Bool = false, upstream: (any HTTPTransport)? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        onTestFailure: FailedTestRecording = .discard
    ) {
        self.onTestFailure = onTestFailure
        self.cassette = cassette
        self.mode = mode
        self.configuration = configuration
        self.requireAllPlayed = requireAllPlayed
        self.upstream = upstream
        self.environment = environment
    }

    /// A failure of the cassette around a test: its message says what happened and how to fix it.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// The message, e.g. an unmatched request with its nearest recorded requests.
        public var description: String
        /// The cassette error behind it; `nil` for a warning.
        public var error: CassetteError?
        /// Whether this is a warning (expired interactions replayed anyway, answers that drifted) rather than a failure.
        public var isWarning = false
    }

    /// Opens the cassette, runs `body` with its transport (also set as ``TapedeckTest/currentTransport``), then
    /// closes the cassette. Returns the failures: the cassette could not be opened (the body does not run), requests
    /// that matched nothing, and (with ``requireAllPlayed``) interactions never played; and, as warnings, expired
    /// interactions replayed anyway and answers that drifted from the ones recorded before
    /// (`CassetteSummary.drift`).
    ///
    /// - Throws: what `body` throws, except cassette errors, which are among the returned failures.
    public func run(_ body: @Sendable (any HTTPTransport) async throws -> Void) async throws -> [Failure] {
        try await run(body, testFailed: { false })
    }

    /// ``run(_:)`` for a test whose own failures `testFailed` tells (issues recorded, XCTest failures): when the
    /// test failed (that, an error out of `body`, or a failure of the cassette) and it recorded something,
    /// ``onTestFailure`` decides what becomes of the recording, and a warning among the returned failures says which.
    public func run(_ body: @Sendable (any HTTPTransport) async throws -> Void,
                    testFailed: () -> Bool) async throws -> [Failure] {
        let records = (try? RecordMode.effective(mode, environment: environment)).map { $0 != .replay && $0 != .spy } ?? false
        let snapshot = records ? RecordingSnapshot(of: cassette) : nil
        let transport: CassetteTransport
        do {
            let recorder = upstream ?? TapedeckTest.currentTransport ?? Self.defaultRecorder()
            transport = try CassetteTransport(
                cassette: cassette, mode: mode, upstream: recorder, configuration: Self.checkingRecordedTrust(configuration),
                environment: environment)
        } catch {
            return [Failure(description: error.description, error: error)]
        }
        let log = ErrorLog()
        let observed = ObservingTransport(base: transport, errors: log)
        var thrown: (any Error)?
        do {
            // The whole test runs on the recording's clock when the cassette replays: what it checks between requests
            // (a cookie store, a cache) is judged as the live run judged it.
            try await TapedeckTest.$currentTransport.withValue(observed) {
                try await RecordedTime.run(over: transport) { try await body(observed) }
            }
        } catch let error as CassetteError {
            log.append(error)
        } catch {
            thrown = error
        }
        var warnings: [Failure] = []
        do {
            let summary = try transport.finish(requireAllPlayed: requireAllPlayed)
            if let report = environment[RunReport.environmentVariable], !report.isEmpty {
                try RunReport.append(summary, to: URL(fileURLWithPath: report))
            }
            if !summary.expired.isEmpty {
                warnings.append(Failure(
                    description: "cassette \(summary.file) replayed \(summary.expired.count) expired interaction(s) "
                        + "(CassetteConfiguration.expiresAfter):\n" + summary.expired.map { "  - " + $0 }.joined(separator: "\n"),
                    error: nil, isWarning: true))
            }
            if !summary.drift.isEmpty {
                warnings.append(Failure(
                    description: "cassette \(summary.file): \(summary.drift.count) answer(s) drifted from the ones recorded "
                        + "before (status, media type or JSON shape):\n" + summary.drift.map { "  - " + $0 }.joined(separator: "\n"),
                    error: nil, isWarning: true))
            }
        } catch {
            log.append(error)
        }
        let failures = log.all.map { Failure(description: $0.description, error: $0) }
        if let snapshot, thrown != nil || !failures.isEmpty || testFailed(), let note = snapshot.apply(onTestFailure) {
            warnings.append(Failure(description: "cassette \(cassette.path): " + note, error: nil, isWarning: true))
        }
        if let thrown {
            for warning in warnings where warning.description.contains("the test failed") { print("warning: \(warning.description)") }
            throw thrown
        }
        return failures + warnings
    }

    /// The recorder when neither ``upstream`` nor a stub server gives one: libcurl with the `Curl` trait, else
    /// Foundation's URLSession.
    static func defaultRecorder() -> any HTTPTransport {
        #if Curl
        CurlTransport()
        #else
        URLSessionTransport()
        #endif
    }

    /// `configuration` with pinning policies checked against the recorded certificates unless the test chose
    /// otherwise; reading a chain takes swift-certificates, which comes with the client stack (the `Curl` trait).
    static func checkingRecordedTrust(_ configuration: CassetteConfiguration) -> CassetteConfiguration {
        #if Curl
        var configuration = configuration
        if configuration.trustEvaluator == nil { configuration.trustEvaluator = RecordedChainTrust() }
        #endif
        return configuration
    }
}
