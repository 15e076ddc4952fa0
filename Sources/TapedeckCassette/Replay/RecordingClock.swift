import Foundation
import TapedeckCore

/// The recording's time while a cassette replays (``CassetteTransport/recordedTime``). It starts at the first
/// interaction's `recordedAt`; each replayed interaction sets it to its own `recordedAt` (when its response had
/// arrived), and between replays it runs at the wall clock's pace, so a test that waits two seconds between requests
/// sees two seconds pass, as the live run did. Sleeping takes real time.
final class RecordingClock: WallClock {
    private struct Anchor {
        var recorded: Date
        var wall: Date
    }

    private let anchor: Locked<Anchor>

    /// A clock reading `start` now.
    init(start: Date) {
        anchor = Locked(Anchor(recorded: start, wall: Date()))
    }

    var now: Date {
        anchor.withLock { $0.recorded.addingTimeInterval(Date().timeIntervalSince($0.wall)) }
    }

    func sleep(for duration: Duration) async throws { try await Task.sleep(for: duration) }

    /// Moves the clock to the time `interaction` was recorded.
    func replaying(_ interaction: Interaction) {
        let wall = Date()
        anchor.withLock { $0 = Anchor(recorded: interaction.recordedAt, wall: wall) }
    }
}

/// How a replay places the recorded answers in time (``CassetteConfiguration/replayTime``).
public enum ReplayTime: String, Sendable, CaseIterable {
    /// The session runs on the recording's clock (`RecordedTime`): recorded dates are left as they are and judged
    /// as they were judged live. The default.
    case recorded
    /// The answers are moved to now: `Date`, `Expires`, `Last-Modified`, a dated `Retry-After` and cookie
    /// `Expires` attributes are shifted by the time since the interaction was recorded, and the session runs on
    /// the system clock. For clients whose clock Tapedeck does not control (a server serving a cassette to curl or a
    /// browser).
    case now
}

/// Moves the dates of a recorded response by an offset (``ReplayTime/now``). Pure.
///
/// ```swift
/// let moved = RecordedDateShift.toNow(response, recordedAt: interaction.recordedAt)
/// ```
public enum RecordedDateShift {
    /// `response` as if it had been recorded now instead of at `recordedAt` (whole seconds).
    public static func toNow(_ response: Interaction.Response, recordedAt: Date) -> Interaction.Response {
        shifted(response, by: Date().timeIntervalSince(recordedAt).rounded())
    }

    /// The headers that hold an HTTP-date.
    private static let dated = ["date", "expires", "last-modified", "retry-after"]

    /// `response` with its dates moved by `seconds`.
    public static func shifted(_ response: Interaction.Response, by seconds: TimeInterval) -> Interaction.Response {
        guard seconds != 0 else { return response }
        var result = response
        result.headers = HTTPHeaders(response.headers.fields.map { field in
            let name = field.name.lowercased()
            if dated.contains(name), let date = HTTPDate.parse(field.value) {
                return .init(name: field.name, value: HTTPDate.format(date.addingTimeInterval(seconds)))
            }
            if name == "set-cookie" { return .init(name: field.name, value: shiftedCookie(field.value, by: seconds)) }
            return field
        })
        return result
    }

    /// A `Set-Cookie` value with its `Expires` attribute moved (`Max-Age` is relative and stays).
    static func shiftedCookie(_ value: String, by seconds: TimeInterval) -> String {
        var parts = value.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        for index in parts.indices.dropFirst() {
            let attribute = parts[index]
            guard let equals = attribute.firstIndex(of: "="),
                  attribute[..<equals].trimmingCharacters(in: .whitespaces).lowercased() == "expires",
                  let date = HTTPDate.parse(String(attribute[attribute.index(after: equals)...])) else { continue }
            parts[index] = attribute[...equals] + HTTPDate.format(date.addingTimeInterval(seconds))
        }
        return parts.joined(separator: ";")
    }
}
