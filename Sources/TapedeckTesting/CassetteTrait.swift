import Foundation
import TapedeckCassette
import TapedeckCore
import Testing

/// A Swift Testing trait that runs a test (or every test of a suite) with a cassette.
///
/// The cassette file is derived from the suite and test names (and a parameterized case's arguments) under the
/// package's `Cassettes/` folder; see ``CassetteLocation``. The test reaches it through
/// ``TapedeckTest/transport``. Unmatched requests (with their nearest recorded requests), a missing cassette in
/// replay, and (with `requireAllPlayed`) unplayed interactions are recorded as issues at the test's location.
///
/// ```swift
/// @Test(.cassette(mode: .once))
/// func fetchesTheProfile() async throws {
///     let api = HTTPSessionManager(baseURL: URL(string: "https://api.example.com/v1")!, transport: TapedeckTest.transport)
///     let profile = try await api.get("me")
///     #expect(profile.response?.statusCode == 200)
/// }
/// ```
///
/// A test of a server-sent event stream replays it with its recorded pacing, so its read timeouts fire after the
/// same events as they did live (the cassette keeps chunk times for `text/event-stream`; see
/// `CassetteConfiguration.chunkTiming`):
///
/// ```swift
/// @Test(.cassette(configuration: CassetteConfiguration(timing: .recorded(scale: 1))))
/// func theFeedTimesOutDuringTheLongPause() async throws {
///     let request = HTTPRequest(url: feedURL, timeoutInterval: 0.5, responseBody: .stream)
///     await #expect(throws: URLError.self) { try await TapedeckTest.transport.send(request) { feed.consume($0) } }
/// }
/// ```
public struct CassetteTrait: TestTrait, SuiteTrait, TestScoping {
    /// An explicit cassette name, or `nil` to derive it from the test.
    public var name: String?
    /// The record mode; `TAPEDECK_RECORD_MODE` overrides it.
    public var mode: RecordMode
    /// Matching, redaction, timing and faults.
    public var configuration: CassetteConfiguration
    /// The folder cassettes live in, or `nil` for the package's `Cassettes/` (or `TAPEDECK_CASSETTE_ROOT`).
    public var root: URL?
    /// Whether interactions never replayed fail the test.
    public var requireAllPlayed: Bool
    /// What happens to a recording when the test fails: discarded by default, so a failed test never leaves a
    /// cassette behind (see ``FailedTestRecording``).
    public var onTestFailure: FailedTestRecording = .discard

    /// Applied to a suite, the trait gives each of its tests a cassette of its own.
    public var isRecursive: Bool { true }

    /// Runs the test case inside its cassette.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard !test.isSuite, let testCase else {
            try await function()
            return
        }
        let file = cassetteURL(for: test, testCase: testCase)
        let scope = CassetteScope(
            cassette: file, mode: mode, configuration: configuration, requireAllPlayed: requireAllPlayed,
            onTestFailure: onTestFailure)
        // The test's own failures (not known issues, not warnings) are seen as they are recorded, and passed on.
        let failed = FailureFlag()
        let observer = IssueHandlingTrait.compactMapIssues { issue in
            if issue.isFailure { failed.set() }
            return issue
        }
        let failures = try await scope.run({ _ in
            try await observer.provideScope(for: test, testCase: testCase) { try await function() }
        }, testFailed: { failed.isSet })
        for failure in failures {
            Issue.record(Comment(rawValue: failure.description), severity: failure.isWarning ? .warning : .error,
                         sourceLocation: test.sourceLocation)
        }
    }

    /// The cassette file this trait uses for `test` (and, when parameterized, `testCase`).
    public func cassetteURL(for test: Test, testCase: Test.Case?) -> URL {
        let id = test.id
        return CassetteLocation.url(
            name: name, suitePath: [id.moduleName] + id.nameComponents.dropLast(), testName: test.name,
            arguments: testCase.map(TestCaseArguments.rendered) ?? [], sourceFile: test.sourceLocation.filePath,
            root: root)
    }
}

/// The Swift Testing traits that put a test under a cassette or give it a stub server: `.cassette(…)` and
/// `.stubServer(…)`.
extension Trait where Self == CassetteTrait {
    /// Runs the test with a cassette; see ``CassetteTrait``.
    ///
    /// - Parameters:
    ///   - name: a cassette name (a path relative to the suite's folder) instead of the test-derived one.
    ///   - mode: the record mode, `.replay` by default (what CI should run); `TAPEDECK_RECORD_MODE` overrides it.
    ///   - configuration: matching, redaction, timing and faults.
    ///   - root: the folder cassettes live in, instead of the package's `Cassettes/`.
    ///   - requireAllPlayed: fail the test when recorded interactions were never replayed.
    ///   - onTestFailure: what becomes of a recording when the test fails (discarded by default).
    public static func cassette(
        _ name: String? = nil, mode: RecordMode = .replay, configuration: CassetteConfiguration = CassetteConfiguration(),
        root: URL? = nil, requireAllPlayed: Bool = false, onTestFailure: FailedTestRecording = .discard
    ) -> Self {
        CassetteTrait(name: name, mode: mode, configuration: configuration, root: root, requireAllPlayed: requireAllPlayed,
                      onTestFailure: onTestFailure)
    }
}

/// Whether a test recorded a failure, set from Swift Testing's issue handler.
final class FailureFlag: Sendable {
    private let value = Locked(false)

    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}
