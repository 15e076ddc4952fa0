import Foundation
import TapedeckCassette
import TapedeckCore

extension WebSocketConversation {
    /// The conversation a cassette interaction holds: its request is the upgrade, its response the `101`, its
    /// `Interaction.webSocket` the frames. `nil` for a plain HTTP interaction or one whose URL does not parse.
    public init?(_ interaction: Interaction) {
        guard let transcript = interaction.webSocket, let url = URL(string: interaction.request.url),
              let response = interaction.response else { return nil }
        self.init(
            url: url, requestHeaders: interaction.request.headers,
            response: WebSocketUpgradeResponseHead(status: response.statusCode, reason: response.reasonPhrase, headers: response.headers),
            frames: transcript.frames, metrics: interaction.metrics)
    }

    /// The conversation as a cassette interaction recorded at `recordedAt`, its ``metrics`` as the interaction's
    /// `timing`, its times rounded to the microsecond.
    ///
    /// ```swift
    /// var cassette = Cassette(interactions: [conversation.interaction(recordedAt: Date())])
    /// try CassetteFile.save(cassette, to: url)   // format version 2
    /// ```
    public func interaction(recordedAt: Date) -> Interaction {
        let frames = frames.map { frame in
            WebSocketTranscript.Frame(direction: frame.direction, kind: frame.kind, offset: Self.microseconds(frame.offset))
        }
        var timing = metrics
        for time in [\TransferMetrics.nameLookup, \.connect, \.tlsHandshake, \.timeToFirstByte, \.total] {
            timing[keyPath: time] = Self.microseconds(timing[keyPath: time])
        }
        return Interaction(
            request: Interaction.Request(method: "GET", url: url.absoluteString, headers: requestHeaders),
            outcome: .response(Interaction.Response(statusCode: response.status, reasonPhrase: response.reason, headers: response.headers)),
            metrics: timing, recordedAt: recordedAt, webSocket: WebSocketTranscript(frames: frames))
    }

    /// Seconds rounded to the microsecond, so cassettes do not carry clock noise.
    private static func microseconds(_ seconds: Double) -> Double { (seconds * 1_000_000).rounded() / 1_000_000 }
}
