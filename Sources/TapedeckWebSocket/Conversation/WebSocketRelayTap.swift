import Foundation
import TapedeckCassette

/// Reads the frames of a connection that a proxy relays byte for byte, as they pass in each direction, and notes
/// them as a conversation's frames: the client's bytes are parsed as a server parses them (masked frames), the
/// server's as a client does. The bytes themselves are relayed unchanged by the caller; a direction whose bytes
/// break the protocol stops being noted there (the peers judge it), and ``problems`` says why.
///
/// Pure logic: the caller passes bytes and the time since the connection began.
///
/// ```swift
/// var tap = WebSocketRelayTap()
/// tap.passed(bytesFromClient, from: .client, at: 0.012)
/// tap.passed(bytesFromServer, from: .server, at: 0.015)
/// let frames = tap.frames   // whole messages and control frames, in order
/// ```
package struct WebSocketRelayTap: Sendable {
    private var client: WebSocketParser?
    private var server: WebSocketParser?
    /// The frames noted so far, in the order their last byte passed.
    package private(set) var frames: [WebSocketTranscript.Frame] = []
    /// Why a direction stopped being noted, one line each.
    package private(set) var problems: [String] = []

    /// A tap whose parsers accept frames and messages up to `limits`.
    package init(limits: WebSocketLimits = WebSocketLimits()) {
        client = WebSocketParser(role: .server, limits: limits)
        server = WebSocketParser(role: .client, limits: limits)
    }

    /// Notes the frames `bytes` complete, sent by `direction`, `offset` seconds after the connection began.
    package mutating func passed<Bytes: Sequence>(_ bytes: Bytes, from direction: WebSocketTranscript.Direction, at offset: Double)
    where Bytes.Element == UInt8 {
        switch direction {
        case .client: Self.note(bytes, with: &client, from: .client, at: offset, into: &frames, problems: &problems)
        case .server: Self.note(bytes, with: &server, from: .server, at: offset, into: &frames, problems: &problems)
        }
    }

    private static func note<Bytes: Sequence>(
        _ bytes: Bytes, with parser: inout WebSocketParser?, from direction: WebSocketTranscript.Direction, at offset: Double,
        into frames: inout [WebSocketTranscript.Frame], problems: inout [String]
    ) where Bytes.Element == UInt8 {
        guard var current = parser else { return }
        current.append(bytes)
        do {
            while let event = try current.next() {
                frames.append(WebSocketTranscript.Frame(direction: direction, kind: .init(event), offset: offset))
            }
            parser = current
        } catch {
            parser = nil
            problems.append("the \(direction == .client ? "client" : "server")'s frames break the protocol after frame \(frames.count): \(error)")
        }
    }
}
