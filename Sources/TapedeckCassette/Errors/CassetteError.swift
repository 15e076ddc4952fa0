import Foundation
import TapedeckCore

/// Everything that can go wrong with a cassette. Each case says what was wrong and where; the error bridges to
/// `NSError` in ``errorDomain`` (`"TapedeckCassetteErrorDomain"`) with the stable codes listed on each case.
///
/// ```swift
/// do { _ = try await transport.send(request) }
/// catch let error as CassetteError { print(error) }   // names the file, the request and the nearest recordings
/// ```
public enum CassetteError: Error, Sendable, CustomStringConvertible, CustomNSError {
    /// Code 1: replay was asked for but the cassette file does not exist.
    case cassetteNotFound(file: String, mode: RecordMode)
    /// Code 2: the file's `version` is not one this library reads; `supported` is the newest it reads.
    case unsupportedVersion(file: String, found: String, supported: Int)
    /// Code 3: the file is not valid JSON.
    case corrupt(file: String, line: Int, column: Int, reason: String)
    /// Code 4: the JSON is valid but does not describe a cassette; `path` locates the problem, e.g.
    /// `interactions[3].request.url`.
    case invalidFormat(file: String, path: String, reason: String)
    /// Code 5: no recorded interaction matches a request in replay.
    case unmatchedRequest(NearMissReport)
    /// Code 6: another process (or another transport in this one) is recording into the cassette.
    case locked(file: String, holder: String)
    /// Code 7: the mode needs to record but the transport was given no upstream.
    case noUpstream(file: String, mode: RecordMode)
    /// Code 8: `TAPEDECK_RECORD_MODE` holds a value that is not a mode.
    case invalidRecordMode(String)
    /// Code 9: the cassette was closed with interactions that were never played.
    case unplayedInteractions(file: String, requests: [String])
    /// Code 10: reading or writing a file failed.
    case io(file: String, operation: String, reason: String)
    /// Code 11: a HAR document could not be imported.
    case invalidHAR(path: String, reason: String)
    /// Code 12: the transport was used after ``CassetteTransport/finish(requireAllPlayed:)``.
    case closed(file: String)
    /// A request's host is not among ``CassetteConfiguration/allowedHosts`` (code 13).
    case hostNotAllowed(host: String, url: String, allowed: [String])
    /// A request to an ignored host (or, in ``RecordMode/spy``, one not in the cassette) must go live, and the
    /// transport has no upstream (code 14).
    case noUpstreamForLiveRequest(file: String, url: String, reason: String)
    /// The interaction a request matched is older than ``CassetteConfiguration/expiresAfter`` allows, and the
    /// strategy is ``CassetteExpiry/Strategy/fail`` (code 15).
    case expired(file: String, request: String, recordedAt: Date, maximumAge: TimeInterval)
    /// The cassette file changed on disk while a transport was recording into it: someone else edited, replaced or
    /// removed it (code 16). `change` says how. Nothing was written over it: the `count` interactions the transport
    /// held are in `savedTo` (the cassette itself when it had been removed, written back), and the transport records
    /// no more.
    case changedWhileRecording(file: String, change: String, savedTo: String, count: Int)
    /// ``CassetteConfiguration/recordingCheck`` found problems with an interaction just recorded (which stays in
    /// the cassette) (code 17).
    case recordingRejected(file: String, request: String, problems: [String])
    /// A regular-expression redaction filter gave up (`RegexStepLimit`) on part of `place` (an interaction's request
    /// or a path in the file), which may still hold the secret it was to remove, so nothing was written (code 18).
    /// `problems` names each filter and why it gave up.
    case redactionGaveUp(file: String, place: String, problems: [String])
    /// An interaction just recorded would make the cassette unreadable (`place` and `reason` as loading would report
    /// them, e.g. chunks that do not add up to the body), so it was not written (code 19).
    case unreadableRecording(file: String, request: String, place: String, reason: String)

    /// The `NSError` domain of cassette errors.
    public static let errorDomain = "TapedeckCassetteErrorDomain"

    /// The stable code of each case (see the cases).
    public var errorCode: Int {
        switch self {
        case .cassetteNotFound: return 1
        case .unsupportedVersion: return 2
        case .corrupt: return 3
        case .invalidFormat: return 4
        case .unmatchedRequest: return 5
        case .locked: return 6
        case .noUpstream: return 7
        case .invalidRecordMode: return 8
        case .unplayedInteractions: return 9
        case .io: return 10
        case .invalidHAR: return 11
        case .closed: return 12
        case .hostNotAllowed: return 13
        case .noUpstreamForLiveRequest: return 14
        case .expired: return 15
        case .changedWhileRecording: return 16
        case .recordingRejected: return 17
        case .redactionGaveUp: return 18
        case .unreadableRecording: return 19
        }
    }

    /// `NSLocalizedDescriptionKey` carries ``description``.
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: description] }

    /// How messages and reports print it.
    public var description: String {
        switch self {
        case .cassetteNotFound(let file, let mode):
            return "cassette \(file) does not exist and the record mode is \(mode); record it with "
                + "TAPEDECK_RECORD_MODE=once (or newEpisodes) and a transport that has an upstream"
        case .unsupportedVersion(let file, let found, let supported):
            if let version = Int(found), version > supported {
                return "cassette \(file) has format version \(found) (at $.version), newer than version \(supported), the one this Tapedeck "
                    + "reads: it was written by a newer Tapedeck; update Tapedeck to read it"
            }
            return "cassette \(file) has format version \(found) (at $.version), but this Tapedeck reads versions 1 to \(supported) only; "
                + "update Tapedeck, or re-record the cassette with TAPEDECK_RECORD_MODE=all"
        case .corrupt(let file, let line, let column, let reason):
            return "cassette \(file) is not valid JSON at line \(line), column \(column): \(reason)"
        case .invalidFormat(let file, let path, let reason):
            return "cassette \(file) is not a valid cassette at \(path): \(reason)"
        case .unmatchedRequest(let report):
            return report.description
        case .locked(let file, let holder):
            return "cassette \(file) is being recorded by \(holder); two recorders would corrupt it, so this one was "
                + "refused (nothing was written). Wait for the other to finish, or record into another cassette"
        case .noUpstream(let file, let mode):
            return "cassette \(file) must record in mode \(mode), but the CassetteTransport has no upstream transport; "
                + "pass upstream: CurlTransport()"
        case .invalidRecordMode(let value):
            return "TAPEDECK_RECORD_MODE=\(value) is not a record mode; use one of "
                + RecordMode.allCases.map(\.rawValue).joined(separator: ", ")
        case .unplayedInteractions(let file, let requests):
            return "cassette \(file) has \(requests.count) interaction(s) that were never played:\n"
                + requests.map { "  - " + $0 }.joined(separator: "\n")
        case .io(let file, let operation, let reason):
            return "could not \(operation) \(file): \(reason)"
        case .invalidHAR(let path, let reason):
            return "not a valid HAR 1.2 document at \(path): \(reason)"
        case .closed(let file):
            return "cassette \(file) was already finished; create a new CassetteTransport to use it again"
        case .hostNotAllowed(let host, let url, let allowed):
            return "the request to \(url) was refused: its host \(host) is not among the allowed hosts ("
                + allowed.sorted().joined(separator: ", ") + "); add it to CassetteConfiguration.allowedHosts or "
                + CassetteConfiguration.allowedHostsVariable
        case .expired(let file, let request, let recordedAt, let maximumAge):
            return "the interaction for \(request) in cassette \(file) was recorded \(Timestamp.format(recordedAt)), more than "
                + "\(Int(maximumAge / 86_400)) day(s) (\(Int(maximumAge)) s) ago, past CassetteConfiguration.expiresAfter; "
                + "re-record it with TAPEDECK_RECORD_MODE=newEpisodes and the reRecord strategy, or TAPEDECK_RECORD_MODE=all"
        case .changedWhileRecording(let file, let change, let savedTo, let count):
            let kept = savedTo == file
                ? "it was written back with the \(count) interaction(s) this transport held (sidecar bodies removed with it are not restored)"
                : "nothing was written over it; the \(count) interaction(s) this transport held are in \(savedTo): keep the file you want"
            return "cassette \(file) \(change) while this transport was recording into it; \(kept). This transport records no "
                + "more; open a new CassetteTransport to go on"
        case .noUpstreamForLiveRequest(let file, let url, let reason):
            return "the request to \(url) must go live (\(reason)), but the CassetteTransport of \(file) has no "
                + "upstream transport; pass upstream: CurlTransport()"
        case .recordingRejected(let file, let request, let problems):
            return "the interaction for \(request) was recorded in cassette \(file), but the recording check found "
                + "\(problems.count) problem(s):\n" + problems.map { "  - \($0)" }.joined(separator: "\n")
        case .unreadableRecording(let file, let request, let place, let reason):
            return "the interaction for \(request) was not written to cassette \(file): it would make the cassette unreadable "
                + "at \(place): \(reason). This is a bug in Tapedeck; please report it with the request"
        case .redactionGaveUp(let file, let place, let problems):
            return "cassette \(file) was not written: redaction of \(place) gave up, and what it gave up on may hold a secret:\n"
                + problems.map { "  - \($0)" }.joined(separator: "\n")
                + "\nsimplify the filter's pattern (no nested quantifiers such as (a+)+)"
        }
    }
}

extension CassetteError {
    /// An atomic write's failure as ``io(file:operation:reason:)``, in the same words.
    package init(_ failure: AtomicFile.Failure) {
        self = .io(file: failure.path, operation: failure.operation, reason: failure.reason)
    }
}
