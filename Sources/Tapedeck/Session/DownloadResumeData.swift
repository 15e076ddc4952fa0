import Foundation

/// What a cancelled download needs to continue later: the request, where its partial file is, and the validator
/// that tells whether the server's resource is still the same. Encoded as JSON `Data`, like the opaque resume data
/// `URLSession` hands out.
///
/// ```swift
/// let resumeData = await task.cancelProducingResumeData()
/// let resumed = try manager.downloadTask(withResumeData: resumeData!) { _, _ in destination }
/// resumed.resume()
/// ```
public struct DownloadResumeData: Codable, Sendable, Hashable {
    /// Format version, for a clear error when an unknown one is read.
    public var version: Int
    /// The URL being downloaded.
    public var url: URL
    /// Request headers to send again (without any `Range`).
    public var headers: [[String]]
    /// The partial file on disk.
    public var partialFile: URL
    /// The `ETag` of the first response, if any (sent back as `If-Range`).
    public var entityTag: String?
    /// The `Last-Modified` of the first response, if any (sent as `If-Range` when there is no ETag).
    public var lastModified: String?

    /// The version this build writes.
    public static let currentVersion = 1

    /// Why resume data could not be used.
    public enum DecodingError: Error, CustomStringConvertible {
        /// The bytes are not resume data at all.
        case unreadable(underlying: any Error)
        /// Written by a newer Tapedeck.
        case unsupportedVersion(Int)

        /// How messages and reports print it.
        public var description: String {
            switch self {
            case .unreadable(let underlying): return "the resume data is not readable Tapedeck resume data: \(underlying)"
            case .unsupportedVersion(let version):
                return "the resume data has version \(version); this Tapedeck reads version \(DownloadResumeData.currentVersion)"
            }
        }
    }

    /// Encodes to `Data`.
    public func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(self)) ?? Data()
    }

    /// Decodes resume data produced by ``encoded()``.
    public init(data: Data) throws {
        let decoded: DownloadResumeData
        do {
            decoded = try JSONDecoder().decode(DownloadResumeData.self, from: data)
        } catch {
            throw DecodingError.unreadable(underlying: error)
        }
        guard decoded.version == Self.currentVersion else { throw DecodingError.unsupportedVersion(decoded.version) }
        self = decoded
    }

    init(request: HTTPRequest, partialFile: URL, response: HTTPResponseHead?) {
        version = Self.currentVersion
        url = request.url
        headers = request.headers.filter { $0.name.lowercased() != "range" && $0.name.lowercased() != "if-range" }
            .map { [$0.name, $0.value] }
        self.partialFile = partialFile
        entityTag = response?.headers["ETag"]
        lastModified = response?.headers["Last-Modified"]
    }

    /// The request that continues the download from `offset` bytes.
    func continuationRequest(from offset: Int64, template: HTTPRequest) -> HTTPRequest {
        var request = template
        request.url = url
        request.headers = HTTPHeaders(headers.compactMap { $0.count == 2 ? ($0[0], $0[1]) : nil })
        if offset > 0 {
            request.headers["Range"] = "bytes=\(offset)-"
            if let validator = entityTag ?? lastModified { request.headers["If-Range"] = validator }
        }
        request.responseBody = .resumingFile(partialFile, existingLength: offset)
        return request
    }
}
