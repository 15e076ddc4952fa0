import Foundation
import TapedeckCore

/// A recorded JSON-RPC answer given to a caller that numbers its messages its own way. The ``MatchRule/jsonRPC(ignoringParams:)``
/// rule matches a call whatever its `id`, so the recorded answer carries the recording's ids; a client drops an
/// answer whose `id` is not one it sent. This puts the caller's ids in: each response's `id` (in a JSON body, in
/// each element of a batch, in each event of a `text/event-stream` answer), a cancellation's `requestId`, and a
/// progress notification's `progressToken` (the caller's `params._meta.progressToken`). Messages the server itself
/// sent with a `method` keep their own ids.
///
/// ```swift
/// if let renumbering = JSONRPCAnswer(recorded: recordedBody, live: callersBody) {
///     response = renumbering.applied(to: response)
/// }
/// ```
struct JSONRPCAnswer: Sendable {
    /// The caller's value for each recorded one, by the recorded value's canonical text.
    private var ids: [String: CassetteJSON] = [:]
    private var progressTokens: [String: CassetteJSON] = [:]

    /// The renumbering from the recorded request body to the caller's, message by message; `nil` when either is not
    /// JSON-RPC, their messages do not pair up, or every id and token is the same already.
    init?(recorded: Data, live: Data) {
        // A call sent again but for its id (what every new session sends): only the ids differ, and no JSON is read
        // but theirs. The rest of the bytes, a progress token among them, are the same.
        if let (old, new) = JSONRPCQuickComparison.idValues(ifSameButForID: recorded, live), JSONRPCQuickComparison.isCall(recorded),
           let oldID = try? CassetteJSON.parse(old), let newID = try? CassetteJSON.parse(new) {
            let recordedID = oldID.canonical()
            guard recordedID != newID.canonical() else { return nil }
            ids[recordedID] = newID
            return
        }
        guard case .messages(let before, _) = JSONRPCBody.read(recorded), case .messages(let after, _) = JSONRPCBody.read(live),
              before.count == after.count else { return nil }
        for (old, new) in zip(before, after) where old.kind == .call && new.kind == .call {
            if let oldID = old.id, let newID = new.id, oldID.canonical() != newID.canonical() { ids[oldID.canonical()] = newID }
            if let oldToken = old.params?["_meta"]?["progressToken"], let newToken = new.params?["_meta"]?["progressToken"],
               oldToken.canonical() != newToken.canonical() {
                progressTokens[oldToken.canonical()] = newToken
            }
        }
        if ids.isEmpty && progressTokens.isEmpty { return nil }
    }

    /// `response` with the caller's ids and tokens: its body (inline bodies only), a `Content-Length` that gave the
    /// body's length, and its chunks, each boundary kept with the event it closes.
    func applied(to response: Interaction.Response) -> Interaction.Response {
        guard let body = response.body.inlineData else { return response }
        let isEventStream = (response.headers["Content-Type"] ?? "").lowercased().hasPrefix("text/event-stream")
        let rewritten: (body: Data, boundary: (Int) -> Int)?
        if isEventStream {
            rewritten = eventStream(body)
        } else if let value = CassetteJSON.parseBody(body), let renumbered = message(value) {
            let data = CassetteJSON.serialize(renumbered)
            rewritten = (data, { Int((Double($0) * Double(data.count) / Double(max(body.count, 1))).rounded()) })
        } else {
            rewritten = nil
        }
        guard let rewritten else { return response }
        var answered = response
        answered.body = CassetteBody(rewritten.body, contentEncoding: response.body.contentEncoding)
        if answered.headers["Content-Length"] == String(body.count) { answered.headers["Content-Length"] = String(rewritten.body.count) }
        if let chunks = response.chunks {
            answered.chunks = Self.moved(chunks, total: rewritten.body.count, boundary: rewritten.boundary)
        }
        return answered
    }

    /// Events of a `text/event-stream` body with the caller's ids and tokens (the body as it is when none changes).
    func appliedToEvents(_ body: Data) -> Data {
        eventStream(body)?.body ?? body
    }

    /// A message (or a batch of them) with the caller's ids and tokens; `nil` when nothing in it changes.
    private func message(_ value: CassetteJSON) -> CassetteJSON? {
        if case .array(let elements) = value {
            let renumbered = elements.map { message($0) }
            guard renumbered.contains(where: { $0 != nil }) else { return nil }
            return .array(zip(elements, renumbered).map { $1 ?? $0 })
        }
        guard case .object(var members) = value else { return nil }
        var changed = false
        let isResponse = value["method"] == nil && (value["result"] != nil || value["error"] != nil)
        for index in members.indices {
            switch members[index].key {
            case "id" where isResponse:
                if let new = ids[members[index].value.canonical()] { members[index].value = new; changed = true }
            case "params":
                guard case .object(var params) = members[index].value else { continue }
                for slot in params.indices {
                    let table = params[slot].key == "progressToken" ? progressTokens : params[slot].key == "requestId" ? ids : [:]
                    if let new = table[params[slot].value.canonical()] { params[slot].value = new; changed = true }
                }
                members[index].value = .object(params)
            default:
                continue
            }
        }
        return changed ? .object(members) : nil
    }

    /// An event stream with each `data:` line that holds a message renumbered, and where each old offset lands.
    private func eventStream(_ body: Data) -> (body: Data, boundary: (Int) -> Int)? {
        let bytes = [UInt8](body)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 64)
        // (old start, old end, new start, new end) of every line written differently, in order.
        var replaced: [(Int, Int, Int, Int)] = []
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
            var content = end
            if content > start && bytes[content - 1] == UInt8(ascii: "\r") { content -= 1 }
            let line = bytes[start..<content]
            if let renumbered = dataLine(line) {
                replaced.append((start, content, output.count, output.count + renumbered.count))
                output += renumbered
            } else {
                output += line
            }
            output += bytes[content..<min(end + 1, bytes.count)]
            start = end + 1
        }
        guard !replaced.isEmpty else { return nil }
        // A boundary inside a rewritten line moves to its end: the line arrives whole with the chunk that ended in it.
        let boundary = { (old: Int) -> Int in
            var shift = 0
            for (oldStart, oldEnd, _, newEnd) in replaced {
                if old <= oldStart { break }
                if old < oldEnd { return newEnd }
                shift = newEnd - oldEnd
            }
            return old + shift
        }
        return (Data(output), boundary)
    }

    /// A `data:` line whose payload is a message that changes, written again; `nil` otherwise.
    private func dataLine(_ line: ArraySlice<UInt8>) -> [UInt8]? {
        let prefix = Array("data:".utf8)
        guard line.starts(with: prefix) else { return nil }
        var payloadStart = line.startIndex + prefix.count
        if payloadStart < line.endIndex && line[payloadStart] == UInt8(ascii: " ") { payloadStart += 1 }
        guard let value = CassetteJSON.parseBody(Data(line[payloadStart...])), let renumbered = message(value) else { return nil }
        return Array(line[line.startIndex..<payloadStart]) + [UInt8](CassetteJSON.serialize(renumbered))
    }

    /// `chunks` with each end moved by `boundary` (an old offset to its new one): a chunk left empty joins the next.
    private static func moved(_ chunks: [TimedChunk], total: Int, boundary: (Int) -> Int) -> [TimedChunk] {
        var result: [TimedChunk] = []
        var oldEnd = 0, newStart = 0
        for (index, chunk) in chunks.enumerated() {
            oldEnd += chunk.byteCount
            let newEnd = index == chunks.count - 1 ? total : min(max(boundary(oldEnd), newStart), total)
            if newEnd > newStart {
                result.append(TimedChunk(byteCount: newEnd - newStart, at: chunk.at))
                newStart = newEnd
            }
        }
        return result
    }
}

extension Interaction {
    /// This interaction answering `liveBody`, a JSON-RPC request that the ``MatchRule/jsonRPC(ignoringParams:)`` rule
    /// matched with it: the answer carries the caller's ids and progress tokens (``JSONRPCAnswer``). Unchanged when
    /// there is nothing to renumber.
    package func answeringJSONRPC(_ liveBody: Data) -> Interaction {
        guard case .response(let response) = outcome, let recorded = request.body.inlineData,
              let renumbering = JSONRPCAnswer(recorded: recorded, live: liveBody) else { return self }
        var answered = self
        answered.outcome = .response(renumbering.applied(to: response))
        return answered
    }
}

extension Array where Element == MatchRule {
    /// Whether the rules include ``MatchRule/jsonRPC(ignoringParams:)``, so that answers carry the caller's ids.
    package var matchesJSONRPC: Bool {
        contains { if case .jsonRPC = $0.kind { true } else { false } }
    }
}
