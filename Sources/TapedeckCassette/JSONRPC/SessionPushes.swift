import Foundation
import TapedeckCore

/// What an MCP server pushed on a session's `GET` event stream while one of the session's calls was in flight,
/// worked out from a recording's times, so that a replay sends each such message during the call that caused it,
/// not when the stream opens.
///
/// A client of MCP's streamable HTTP transport opens a `GET` event stream after `initialize`; the server sends on
/// it whatever belongs to no answer: a log line, a list that changed, a request of its own, progress of a call
/// answered as JSON. The recording holds that stream as one long answer, so a replay in another order, a subset, or
/// a second session would send every message at the wrong moment (or all at once when the stream opens). Here each
/// event of such a stream is given to the call whose request was on its way when the event arrived (the call its
/// `progressToken` names, for progress), with how long after the call started it came; what no call was in flight
/// for stays on the stream.
///
/// ```swift
/// guard let pushes = SessionPushes.replaying(cassette, matching: rules, bodyBytes: { $0.inlineData }) else { return }
/// if pushes.isPushStream(getIndex) { send(pushes.streamStart(getIndex)) }            // the stream opens
/// for event in pushes.pushes(for: callIndex, answering: liveBody)?.events ?? [] { push(event.bytes) }   // during the call
/// ```
package struct SessionPushes: Sendable {
    /// One event of a push stream, given to a call.
    package struct Event: Sendable, Equatable {
        /// The event's bytes, its closing blank line included.
        package var bytes: Data
        /// Seconds after the call's request started that the event arrived.
        package var after: TimeInterval
    }

    /// What a call pushed, and how long after it started its answer ended.
    package struct CallPushes: Sendable, Equatable {
        /// The events pushed while the call was in flight, in order.
        package var events: [Event]
        /// Seconds after the call's request started that its answer ended.
        package var answered: TimeInterval

        /// How long the answer came after the last event (0 when it came first): an answer replayed at once still
        /// waits this long (at most `limit`) after the events are out, so that a client reading the stream and the
        /// answer on two connections meets them in the order it met them live.
        package func answerGap(atMost limit: TimeInterval) -> TimeInterval {
            min(limit, max(0, answered - (events.last?.after ?? answered)))
        }
    }

    /// A call's recorded request body and what it pushed.
    private struct Pushed: Sendable {
        var requestBody: Data
        var pushes: CallPushes
    }

    /// By the call's position in the cassette.
    private var pushed: [Int: Pushed] = [:]
    /// By the push stream's position: the bytes that stay on it.
    private var kept: [Int: Data] = [:]

    /// How far a time read from a recording may be off: `recordedAt` is kept to the millisecond.
    static let slack: TimeInterval = 0.002

    /// Works out the pushes of every recorded session of `cassette`; `bodyBytes` reads a body, sidecars included.
    init(cassette: Cassette, bodyBytes: (CassetteBody) -> Data?) {
        let interactions = cassette.interactions
        var streams: [(position: Int, session: String?, events: [TimedEvent], rest: Data)] = []
        for (position, interaction) in interactions.enumerated() {
            guard let response = interaction.response, Self.isPushStream(interaction.request, response),
                  let streamed = bodyBytes(response.body) else { continue }
            let (events, rest) = Self.events(in: streamed, chunks: response.chunks,
                                             head: Self.start(of: interaction) + interaction.metrics.timeToFirstByte)
            streams.append((position, interaction.request.headers[MCPSessionIDs.header], events, rest))
        }
        // Most JSON-RPC cassettes hold no push stream: their calls are not read.
        guard !streams.isEmpty else { return }
        var calls: [Call] = []
        for (position, interaction) in interactions.enumerated() where interaction.response != nil && interaction.request.method != "GET" {
            let body = bodyBytes(interaction.request.body) ?? Data()
            guard case .messages(let messages, _) = JSONRPCBody.read(body), messages.contains(where: { $0.kind == .call }) else { continue }
            let tokens = Set(messages.compactMap { $0.params?["_meta"]?["progressToken"]?.canonical() })
            calls.append(Call(position: position, session: interaction.request.headers[MCPSessionIDs.header], start: Self.start(of: interaction),
                              end: interaction.recordedAt.timeIntervalSince1970, progressTokens: tokens, body: body))
        }
        for stream in streams {
            var rest = Data()
            for event in stream.events {
                if let call = Self.call(for: event, session: stream.session, among: calls) {
                    pushed[call.position, default: Pushed(requestBody: call.body, pushes: CallPushes(events: [], answered: call.end - call.start))]
                        .pushes.events.append(Event(bytes: event.bytes, after: max(0, event.time - call.start)))
                } else {
                    rest.append(event.bytes)
                }
            }
            rest.append(stream.rest)
            kept[stream.position] = rest
        }
    }

    /// When a recorded exchange's request started (seconds since 1970): it is stamped when its answer ended.
    private static func start(of interaction: Interaction) -> TimeInterval {
        interaction.recordedAt.timeIntervalSince1970 - interaction.metrics.total
    }

    /// The pushes a replay of `cassette` under `matching` sends during their calls: `nil` unless the rules include
    /// ``MatchRule/jsonRPC(ignoringParams:)`` and some call of the cassette pushed something.
    package static func replaying(_ cassette: Cassette, matching: [MatchRule], bodyBytes: (CassetteBody) -> Data?) -> SessionPushes? {
        guard matching.matchesJSONRPC else { return nil }
        let pushes = SessionPushes(cassette: cassette, bodyBytes: bodyBytes)
        return pushes.pushed.isEmpty ? nil : pushes
    }

    /// Whether interaction `position` is a session's `GET` event stream, whose messages are sent during their calls.
    package func isPushStream(_ position: Int) -> Bool {
        kept[position] != nil
    }

    /// What push stream `position` sends when it opens: the events no call was in flight for.
    package func streamStart(_ position: Int) -> Data {
        kept[position] ?? Data()
    }

    /// What call `position` pushed while it was in flight (`nil`: nothing), its events with the caller's ids and
    /// progress tokens where the caller's request body `liveBody` numbers them otherwise (``JSONRPCAnswer``).
    package func pushes(for position: Int, answering liveBody: Data) -> CallPushes? {
        guard var pushes = pushed[position]?.pushes, let recorded = pushed[position]?.requestBody else { return nil }
        if let renumbering = JSONRPCAnswer(recorded: recorded, live: liveBody) {
            pushes.events = pushes.events.map { Event(bytes: renumbering.appliedToEvents($0.bytes), after: $0.after) }
        }
        return pushes
    }

    /// Whether a recorded exchange is a session's `GET` event stream: a `GET` without a body answered with
    /// `text/event-stream`.
    static func isPushStream(_ request: Interaction.Request, _ response: Interaction.Response) -> Bool {
        request.method == "GET" && (request.body.inlineData?.isEmpty ?? false)
            && (response.headers["Content-Type"] ?? "").lowercased().hasPrefix("text/event-stream")
    }

    /// A recorded call: where it is, whose session, when its request started and its answer ended.
    private struct Call: Sendable {
        var position: Int
        var session: String?
        var start: TimeInterval
        var end: TimeInterval
        var progressTokens: Set<String>
        var body: Data
    }

    /// An event of a push stream and when it arrived (seconds since 1970).
    private struct TimedEvent {
        var bytes: Data
        var time: TimeInterval
        var message: JSONRPCMessage?
    }

    /// The call an event was pushed for: in the same session, the one its progress token names, else the latest
    /// started of those in flight when it arrived; `nil` for an event that is not a JSON-RPC message.
    private static func call(for event: TimedEvent, session: String?, among calls: [Call]) -> Call? {
        guard let message = event.message else { return nil }
        let own = calls.filter { $0.session == session }
        if message.method == "notifications/progress", let token = message.params?["progressToken"]?.canonical(),
           let named = own.last(where: { $0.progressTokens.contains(token) }) {
            return named
        }
        return own.filter { $0.start - slack <= event.time && event.time <= $0.end + slack }.max { $0.start < $1.start }
    }

    /// The events of an event-stream body (each up to and including the blank line that ends it) with the time its
    /// last byte arrived, and the bytes after the last complete event.
    private static func events(in body: Data, chunks: [TimedChunk]?, head: TimeInterval) -> ([TimedEvent], Data) {
        let bytes = [UInt8](body)
        // The end offset of each chunk and its time.
        var ends: [(end: Int, at: TimeInterval)] = []
        var offset = 0
        for chunk in chunks ?? [] {
            offset += chunk.byteCount
            ends.append((offset, chunk.at))
        }
        func time(ofByteBefore end: Int) -> TimeInterval {
            head + (ends.first { $0.end >= end }?.at ?? ends.last?.at ?? 0)
        }
        var events: [TimedEvent] = []
        var eventStart = 0, lineStart = 0, index = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") else { index += 1; continue }
            let lineEnd = index
            index += (byte == UInt8(ascii: "\r") && index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\n")) ? 2 : 1
            if lineEnd == lineStart && lineStart > eventStart {
                let event = Data(bytes[eventStart..<index])
                events.append(TimedEvent(bytes: event, time: time(ofByteBefore: index), message: message(inEvent: event)))
                eventStart = index
            } else if lineEnd == lineStart {
                eventStart = index
                events.append(TimedEvent(bytes: Data(bytes[lineStart..<index]), time: time(ofByteBefore: index), message: nil))
            }
            lineStart = index
        }
        return (events, Data(bytes[eventStart...]))
    }

    /// The JSON-RPC message an event's `data:` lines carry, if they carry one.
    private static func message(inEvent event: Data) -> JSONRPCMessage? {
        let lines = String(decoding: event, as: UTF8.self).split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        let data = lines.filter { $0.hasPrefix("data:") }.map { line -> Substring in
            let payload = line.dropFirst(5)
            return payload.first == " " ? payload.dropFirst() : payload
        }
        guard !data.isEmpty, let value = CassetteJSON.parseBody(Data(data.joined(separator: "\n").utf8)) else { return nil }
        if case .array(let elements) = value, let first = elements.first { return try? JSONRPCMessage.read(first).get() }
        return try? JSONRPCMessage.read(value).get()
    }
}
