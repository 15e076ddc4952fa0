import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TapedeckCore

/// Turns a recorded interaction back into a response and the events a live transport would deliver on the way:
/// upload progress, the response head, the body (in memory, written to the requested file, or as body chunks) and
/// download progress; or the recorded `URLError`.
///
/// A body recorded with its chunks (``Interaction/Response/chunks``) is delivered in those chunks; with a `pace`
/// each waits for its recorded time, and a gap the request's `timeoutInterval` would not have survived live fails
/// with `URLError.timedOut` after the chunks before it. Other bodies go in 64 KiB chunks, at once. A stream recorded
/// as cut short (``Interaction/Response/interruption``) ends, after its body, in the recorded error.
struct ReplayEmitter {
    let interaction: Interaction
    let request: HTTPRequest
    let cassette: URL
    /// How recorded chunk times are waited out, or `nil` to deliver at once.
    var pace: ReplayPace? = nil
    /// Whether a body the cassette stores decoded (``CassetteBody/contentEncoding``) is delivered decoded, as a live
    /// transport that decodes content does, or encoded again as it crossed the wire.
    var decodesContent = true
    static let chunkSize = 64 * 1024

    /// The replayed response, passing every event before `completed` to `handler` (none are built without one);
    /// throws the recorded error.
    func response(emitting handler: HTTPEventHandler?) async throws -> HTTPResponse {
        let emit: (HTTPTransportEvent) -> Void = { handler?($0) }
        let response: Interaction.Response
        switch interaction.outcome {
        case .failure(let failure): throw failure.urlError(failingURL: request.url)
        case .response(let recorded): response = recorded
        }
        if handler != nil, let length = request.body.knownLength, length > 0 {
            emit(.uploadProgress(TransferProgress(completed: length, total: length)))
        }
        let head = response.head(answering: request)
        emit(.responseHead(head))
        var clock = pace.map { ReplayPace.Clock($0, request: request) }  // time 0 is the response head, just delivered
        let recordedBody = decodesContent ? response.body : try Self.encoded(response.body, cassette: cassette)
        let total = recordedBody.byteCount
        let plan = response.chunks.map { TimedChunk.fitted($0, to: Int(total)) }
        let body: HTTPResponseBody
        switch request.responseBody {
        case .memory:
            let data = try CassetteFile.bodyData(recordedBody, cassette: cassette)
            if let plan {
                try await forEachChunk(of: data, plan: plan, clock: &clock) { _, sent in emit(.downloadProgress(TransferProgress(completed: sent, total: total))) }
            } else if total > 0 {
                emit(.downloadProgress(TransferProgress(completed: total, total: total)))
            }
            body = .data(data)
        case .stream:
            try await forEachChunk(recordedBody, plan: plan, clock: &clock) { chunk, sent in
                emit(.bodyChunk(chunk))
                emit(.downloadProgress(TransferProgress(completed: sent, total: total)))
            }
            body = .streamed(byteCount: total)
        case .file(let destination):
            try await write(recordedBody, plan: plan, clock: &clock, to: destination, keeping: 0, emit: emit)
            body = .file(destination, byteCount: total)
        case .resumingFile where head.isInterimHop:
            // A hop the session follows or answers leaves the partial file alone.
            body = .data(try CassetteFile.bodyData(recordedBody, cassette: cassette))
        case .resumingFile(let destination, let existing):
            let keep = response.statusCode == 206 ? existing : 0
            try await write(recordedBody, plan: plan, clock: &clock, to: destination, keeping: keep, emit: emit)
            body = .file(destination, byteCount: total)
        }
        if let interruption = response.interruption {
            try await clock?.wait(until: interaction.metrics.total - interaction.metrics.timeToFirstByte)
            throw interruption.urlError(failingURL: request.url)
        }
        return HTTPResponse(head: head, body: body, metrics: interaction.metrics, peerCertificates: interaction.peerCertificates)
    }

    /// The body as it crossed the wire: a body stored decoded (inline or in a sidecar) is compressed again.
    static func encoded(_ body: CassetteBody, cassette: URL) throws -> CassetteBody {
        guard let coding = body.contentEncoding?.lowercased(), coding == "gzip" || coding == "x-gzip" else { return body }
        return CassetteBody(ContentCoding.gzip(try CassetteFile.bodyData(body, cassette: cassette)))
    }

    /// Hands `body` to `handle` chunk by chunk, with the running byte count: the recorded chunks when there is a
    /// `plan`, else 64 KiB pieces (a sidecar in 1 MiB reads).
    private func forEachChunk(_ body: CassetteBody, plan: [TimedChunk]?, clock: inout ReplayPace.Clock?,
                              _ handle: (Data, Int64) throws -> Void) async throws {
        if let plan {
            return try await forEachChunk(of: try CassetteFile.bodyData(body, cassette: cassette), plan: plan, clock: &clock, handle)
        }
        var sent: Int64 = 0
        switch body.storage {
        case .inline(let data):
            var offset = data.startIndex
            while offset < data.endIndex {
                let end = min(offset + Self.chunkSize, data.endIndex)
                sent += Int64(end - offset)
                try handle(data[offset..<end], sent)
                offset = end
            }
        case .sidecar(let path, _):
            let handleFile = try openSidecar(path).handle
            defer { try? handleFile.close() }
            while let chunk = try handleFile.read(upToCount: 1 << 20), !chunk.isEmpty {
                sent += Int64(chunk.count)
                try handle(chunk, sent)
            }
        }
    }

    /// Hands `data` to `handle` in the recorded chunks, each at its time when there is a `clock`.
    private func forEachChunk(of data: Data, plan: [TimedChunk], clock: inout ReplayPace.Clock?,
                              _ handle: (Data, Int64) throws -> Void) async throws {
        var offset = data.startIndex
        for chunk in plan {
            try await clock?.wait(until: chunk.at)
            let end = offset + chunk.byteCount
            try handle(data[offset..<end], Int64(end - data.startIndex))
            offset = end
        }
    }

    private func write(_ body: CassetteBody, plan: [TimedChunk]?, clock: inout ReplayPace.Clock?, to destination: URL,
                       keeping existing: Int64, emit: (HTTPTransportEvent) -> Void) async throws {
        let total = body.byteCount
        do {
            if existing == 0 || !FileManager.default.fileExists(atPath: destination.path) {
                guard FileManager.default.createFile(atPath: destination.path, contents: nil) else {
                    throw URLError(.cannotCreateFile, failingURL: request.url, reason: "cannot create \(destination.path)")
                }
            }
            let handle = try FileHandle(forWritingTo: destination)
            defer { try? handle.close() }
            // Only a longer file is cut: truncating a file to zero bytes, even an empty one, makes ext4 write the whole
            // new body out when the file is closed (`auto_da_alloc`), which doubled the time of a 1 GiB replay.
            if try handle.seekToEnd() > UInt64(existing) { try handle.truncate(atOffset: UInt64(existing)) }
            try handle.seek(toOffset: UInt64(existing))
            if plan == nil, case .sidecar(let path, _) = body.storage,
               try copyInKernel(path, to: handle, emit: { emit(.downloadProgress(TransferProgress(completed: $0, total: total))) }) {
                return
            }
            try await forEachChunk(body, plan: plan, clock: &clock) { chunk, sent in
                try handle.write(contentsOf: chunk)
                emit(.downloadProgress(TransferProgress(completed: sent, total: total)))
            }
        } catch let error as URLError {
            throw error
        } catch let error as CancellationError {
            throw error
        } catch let error as CassetteError {
            throw error
        } catch {
            throw URLError(.cannotWriteToFile, failingURL: request.url, reason: "cannot write \(destination.path): \(error)")
        }
    }
}

extension ReplayEmitter {
    /// The sidecar file at `path` as resolved, opened for reading; a refused or unreadable one throws naming the
    /// cassette.
    fileprivate func openSidecar(_ path: String) throws -> (url: URL, handle: FileHandle) {
        let file = try CassetteFile.sidecarToRead(path, cassette: cassette)
        do { return (file, try InputFile.openForReading(file)) } catch {
            throw CassetteFile.sidecarFailure(path, cassette: cassette, reason: error.reason)
        }
    }

    /// The most a kernel copy moves between two progress events.
    static let kernelCopyStep = 8 << 20

    /// Copies the sidecar file at `path` to `destination` inside the kernel (`sendfile`, file to file): no byte passes
    /// through this process, and a progress event follows each step. Returns `false`, having copied nothing, where the
    /// kernel cannot, for the caller to copy through memory instead.
    fileprivate func copyInKernel(_ path: String, to destination: FileHandle, emit: (Int64) -> Void) throws -> Bool {
        let (file, source) = try openSidecar(path)
        defer { try? source.close() }
        var sent: Int64 = 0
        while true {
            let copied = sendfile(destination.fileDescriptor, source.fileDescriptor, nil, Self.kernelCopyStep)
            if copied == 0 { return true }
            if copied < 0 {
                if errno == EINTR { continue }
                if sent == 0, [ENOSYS, EINVAL, EOPNOTSUPP].contains(errno) { return false }
                throw URLError(.cannotWriteToFile, failingURL: request.url, reason: "cannot copy \(file.path): \(String(cString: strerror(errno)))")
            }
            sent += Int64(copied)
            emit(sent)
        }
    }
}

extension Interaction.Response {
    /// The recorded head as a transport delivers it to `request`: at the URL it was recorded at, else the request's.
    func head(answering request: HTTPRequest) -> HTTPResponseHead {
        HTTPResponseHead(statusCode: statusCode, reasonPhrase: reasonPhrase, version: httpVersion, headers: headers,
                         url: url.flatMap(URL.init(string:)) ?? request.url)
    }
}
