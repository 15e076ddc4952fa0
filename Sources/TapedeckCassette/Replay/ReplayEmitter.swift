import Foundation

/// Turns a recorded interaction back into a response and the events a live transport would deliver on the way:
/// upload progress, the response head, the body (in memory, written to the requested file, or as body chunks) and
/// download progress; or the recorded `URLError`.
struct ReplayEmitter {
    let interaction: Interaction
    let request: HTTPRequest
    let cassette: URL
    static let chunkSize = 64 * 1024

    /// The replayed response, passing every event before `completed` to `handler` (none are built without one);
    /// throws the recorded error.
    func response(emitting handler: HTTPEventHandler?) throws -> HTTPResponse {
        let emit: (HTTPTransportEvent) -> Void = { handler?($0) }
        let response: Interaction.Response
        switch interaction.outcome {
        case .failure(let failure): throw failure.urlError(failingURL: request.url)
        case .response(let recorded): response = recorded
        }
        if handler != nil, let length = request.body.knownLength, length > 0 {
            emit(.uploadProgress(TransferProgress(completed: length, total: length)))
        }
        let finalURL = response.url.flatMap(URL.init(string:)) ?? request.url
        let head = HTTPResponseHead(statusCode: response.statusCode, reasonPhrase: response.reasonPhrase,
                                    version: response.httpVersion, headers: response.headers, url: finalURL)
        emit(.responseHead(head))
        let recordedBody = Self.encoded(response.body)
        let total = recordedBody.byteCount
        let body: HTTPResponseBody
        switch request.responseBody {
        case .memory:
            let data = try CassetteFile.bodyData(recordedBody, cassette: cassette)
            if total > 0 { emit(.downloadProgress(TransferProgress(completed: total, total: total))) }
            body = .data(data)
        case .stream:
            try forEachChunk(recordedBody) { chunk, sent in
                emit(.bodyChunk(chunk))
                emit(.downloadProgress(TransferProgress(completed: sent, total: total)))
            }
            body = .streamed(byteCount: total)
        case .file(let destination):
            try write(recordedBody, to: destination, keeping: 0, emit: emit)
            body = .file(destination, byteCount: total)
        case .resumingFile(let destination, let existing):
            let keep = response.statusCode == 206 ? existing : 0
            try write(recordedBody, to: destination, keeping: keep, emit: emit)
            body = .file(destination, byteCount: total)
        }
        return HTTPResponse(head: head, body: body, metrics: interaction.metrics, peerCertificates: interaction.peerCertificates)
    }

    /// The body as the transport delivered it: a body stored decoded is compressed again.
    static func encoded(_ body: CassetteBody) -> CassetteBody {
        guard let coding = body.contentEncoding?.lowercased(), coding == "gzip" || coding == "x-gzip", let data = body.inlineData else { return body }
        return CassetteBody(ContentCoding.gzip(data))
    }

    private func forEachChunk(_ body: CassetteBody, _ handle: (Data, Int64) throws -> Void) throws {
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
            let file = CassetteFile.sidecarURL(path, cassette: cassette)
            let handleFile: FileHandle
            do { handleFile = try FileHandle(forReadingFrom: file) } catch {
                throw CassetteError.io(file: file.path, operation: "read the sidecar body", reason: "\(error)")
            }
            defer { try? handleFile.close() }
            while let chunk = try handleFile.read(upToCount: 1 << 20), !chunk.isEmpty {
                sent += Int64(chunk.count)
                try handle(chunk, sent)
            }
        }
    }

    private func write(_ body: CassetteBody, to destination: URL, keeping existing: Int64,
                       emit: (HTTPTransportEvent) -> Void) throws {
        let total = body.byteCount
        do {
            if existing == 0 || !FileManager.default.fileExists(atPath: destination.path) {
                guard FileManager.default.createFile(atPath: destination.path, contents: nil) else {
                    throw URLError(.cannotCreateFile, failingURL: request.url, reason: "cannot create \(destination.path)")
                }
            }
            let handle = try FileHandle(forWritingTo: destination)
            defer { try? handle.close() }
            try handle.truncate(atOffset: UInt64(existing))
            try handle.seek(toOffset: UInt64(existing))
            try forEachChunk(body) { chunk, sent in
                try handle.write(contentsOf: chunk)
                emit(.downloadProgress(TransferProgress(completed: sent, total: total)))
            }
        } catch let error as URLError {
            throw error
        } catch let error as CassetteError {
            throw error
        } catch {
            throw URLError(.cannotWriteToFile, failingURL: request.url, reason: "cannot write \(destination.path): \(error)")
        }
    }
}
