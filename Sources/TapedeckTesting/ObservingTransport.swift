import Foundation
import TapedeckCassette
import TapedeckCore

/// Passes requests to a cassette transport and keeps every ``CassetteError`` it throws, so a test is told
/// about an unmatched request even when the code under test swallows the error.
struct ObservingTransport: HTTPTransport {
    let base: any HTTPTransport
    let errors: ErrorLog

    var recordedTime: (any WallClock)? { base.recordedTime }

    func send(_ request: HTTPRequest, onEvent: HTTPEventHandler?) async throws -> HTTPResponse {
        do {
            return try await base.send(request, onEvent: onEvent)
        } catch let error as CassetteError {
            errors.append(error)
            throw error
        }
    }
}

/// The errors seen during a test, in order, each once.
final class ErrorLog: Sendable {
    private let entries = Locked<[CassetteError]>([])

    func append(_ error: CassetteError) {
        entries.withLock { entries in
            if !entries.contains(where: { $0.description == error.description }) { entries.append(error) }
        }
    }

    var all: [CassetteError] { entries.withLock { $0 } }
}
