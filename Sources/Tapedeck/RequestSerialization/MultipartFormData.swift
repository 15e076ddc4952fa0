import Foundation
import TapedeckCore

/// A `multipart/form-data` body under construction (AFNetworking's `AFMultipartFormData`), encoded lazily as a
/// stream so large files are read from disk in pieces while they are sent.
///
/// The wire format is AFNetworking's: each part starts with `--boundary` (after a CRLF for every part but the
/// first), then its header lines (`Content-Disposition: form-data; name="…"; filename="…"`, `Content-Type: …`),
/// an empty line and the body; the body ends with `\r\n--boundary--\r\n`. Names and file names are written as
/// given, without escaping, as AFNetworking does.
///
/// ```swift
/// var form = MultipartFormData()
/// form.append("tapedeck", name: "project")
/// try form.append(fileURL: URL(fileURLWithPath: "/tmp/photo.png"), name: "photo")
/// var request = HTTPRequest(method: .post, url: URL(string: "http://127.0.0.1:8080/post")!)
/// request.headers["Content-Type"] = form.contentType
/// request.body = .stream(form.makeBodyStream())
/// ```
///
/// ``RequestSerializer/multipartRequest(method:url:parameters:boundary:constructingBody:)`` does the same and
/// adds the form fields from parameters first.
public struct MultipartFormData: Sendable {
    /// AFNetworking's suggested packet size for throttled uploads over slow links (16 KiB).
    public static let suggestedPacketSize = 16 * 1024
    /// AFNetworking's suggested delay between throttled packets (0.2 s).
    public static let suggestedDelay: Duration = .milliseconds(200)
    /// The largest chunk ``makeBodyStream(chunkSize:)`` produces by default, and the size files are read in
    /// (64 KiB).
    public static let defaultChunkSize = 64 * 1024

    /// The boundary between parts.
    public let boundary: String
    /// The parts in order.
    private(set) var parts: [MultipartBodyPart] = []
    /// The largest packet a throttled body sends at once, or `nil` when not throttled.
    public private(set) var packetSize: Int?
    /// The pause between throttled packets.
    public private(set) var packetDelay: Duration = .zero

    /// Creates an empty form with a random boundary in AFNetworking's style (`Boundary+` and 16 hex digits).
    public init() {
        self.init(boundary: Self.randomBoundary())
    }

    /// Creates an empty form with a fixed boundary, e.g. for reproducible tests. The boundary must not occur in
    /// any part's body.
    public init(boundary: String) {
        self.boundary = boundary
    }

    /// A boundary such as `Boundary+1A2B3C4D5E6F7A8B`, from two random 32-bit numbers as AFNetworking makes it.
    public static func randomBoundary() -> String {
        "Boundary+" + (UInt32.random(in: .min ... .max).paddedHex + UInt32.random(in: .min ... .max).paddedHex).uppercased()
    }

    /// Whether no part has been appended.
    public var isEmpty: Bool { parts.isEmpty }

    /// The `Content-Type` header value: `multipart/form-data; boundary=<boundary>`.
    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// The exact number of bytes the encoded body has (`0` for an empty form).
    public var contentLength: Int64 {
        MultipartEncoding.segments(for: parts, boundary: boundary).reduce(0) { $0 + $1.length }
    }

    /// Appends a form field whose value is `data` (`Content-Disposition: form-data; name="<name>"`).
    public mutating func append(_ data: Data, name: String) {
        append(headers: ["Content-Disposition": "form-data; name=\"\(name)\""], body: data)
    }

    /// Appends a form field whose value is `value` in UTF-8.
    public mutating func append(_ value: String, name: String) {
        append(Data(value.utf8), name: name)
    }

    /// Appends in-memory file contents with a file name and MIME type.
    public mutating func append(_ data: Data, name: String, fileName: String, mimeType: String) {
        append(headers: Self.fileHeaders(name: name, fileName: fileName, mimeType: mimeType), body: data)
    }

    /// Appends the file at `fileURL`, named after its last path component, with the MIME type its extension
    /// maps to (``mimeType(forPathExtension:)``). The file is read while the body is sent, not now.
    ///
    /// - Throws: ``RequestSerializationError/fileNotReadable(fileURL:underlying:)`` when `fileURL` is not a
    ///   file URL or names no readable regular file.
    public mutating func append(fileURL: URL, name: String) throws {
        try append(
            fileURL: fileURL, name: name, fileName: fileURL.lastPathComponent,
            mimeType: Self.mimeType(forPathExtension: fileURL.pathExtension))
    }

    /// Appends the file at `fileURL` with an explicit file name and MIME type. Its size is taken now; the
    /// body is read while it is sent.
    ///
    /// - Throws: ``RequestSerializationError/fileNotReadable(fileURL:underlying:)`` when `fileURL` is not a
    ///   file URL or names no readable regular file.
    public mutating func append(fileURL: URL, name: String, fileName: String, mimeType: String) throws {
        let length = try Self.readableFileLength(fileURL)
        parts.append(
            MultipartBodyPart(
                headers: Self.fileHeaders(name: name, fileName: fileName, mimeType: mimeType),
                content: .file(fileURL), length: length))
    }

    /// Appends a part whose body comes from `stream`, which must produce exactly `length` bytes; the encoded
    /// body fails with ``RequestSerializationError/bodyPartLengthMismatch(declared:produced:)`` otherwise.
    public mutating func append(
        _ stream: HTTPBodyStream, length: Int64, name: String, fileName: String, mimeType: String
    ) {
        parts.append(
            MultipartBodyPart(
                headers: Self.fileHeaders(name: name, fileName: fileName, mimeType: mimeType),
                content: .stream(stream), length: max(0, length)))
    }

    /// Appends a part with exactly these header lines, in order, and `body`.
    public mutating func append(headers: HTTPHeaders, body: Data) {
        parts.append(MultipartBodyPart(headers: headers, content: .data(body), length: Int64(body.count)))
    }

    /// Throttles the encoded body: chunks of at most `packetSize` bytes with `delay` between them (AFNetworking's
    /// `throttleBandwidthWithPacketSize:delay:`; see ``suggestedPacketSize`` and ``suggestedDelay``).
    public mutating func throttle(packetSize: Int, delay: Duration) {
        self.packetSize = max(1, packetSize)
        self.packetDelay = delay
    }

    /// The encoded body as a stream of `contentLength` bytes, produced lazily each time it is read: data parts
    /// are sliced, file parts are read from disk in pieces, stream parts are forwarded. No chunk is larger than
    /// `chunkSize` (or the throttle's packet size, when smaller).
    public func makeBodyStream(chunkSize: Int = defaultChunkSize) -> HTTPBodyStream {
        let chunks = encodedChunks(chunkSize: chunkSize)
        return HTTPBodyStream(length: contentLength) { chunks }
    }

    /// Writes the encoded body to `fileURL` (created or truncated), chunk by chunk, so memory stays flat.
    /// Upload the file afterwards with `HTTPRequestBody.file` and ``contentType``.
    ///
    /// - Throws: what reading a part or writing the file throws.
    public func writeToFile(_ fileURL: URL) async throws {
        try await RequestBodyFileWriter.write(encodedChunks(chunkSize: Self.defaultChunkSize), to: fileURL)
    }

    /// The encoded body's chunks, without the hop through ``HTTPBodyStream``.
    func encodedChunks(chunkSize: Int) -> MultipartBodyChunks {
        MultipartBodyChunks(
            segments: MultipartEncoding.segments(for: parts, boundary: boundary),
            chunkSize: max(1, min(chunkSize, packetSize ?? chunkSize)),
            delay: packetSize == nil ? .zero : packetDelay)
    }

    private static func fileHeaders(name: String, fileName: String, mimeType: String) -> HTTPHeaders {
        [
            "Content-Disposition": "form-data; name=\"\(name)\"; filename=\"\(fileName)\"",
            "Content-Type": mimeType,
        ]
    }

    private static func readableFileLength(_ fileURL: URL) throws -> Int64 {
        guard fileURL.isFileURL else {
            throw RequestSerializationError.fileNotReadable(fileURL: fileURL, underlying: nil)
        }
        let path = fileURL.resolvingSymlinksInPath().path
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: path)
        } catch {
            throw RequestSerializationError.fileNotReadable(fileURL: fileURL, underlying: error)
        }
        guard (attributes[.type] as? FileAttributeType) == .typeRegular,
            FileManager.default.isReadableFile(atPath: path),
            let size = (attributes[.size] as? NSNumber)?.int64Value
        else {
            throw RequestSerializationError.fileNotReadable(fileURL: fileURL, underlying: nil)
        }
        return size
    }
}
