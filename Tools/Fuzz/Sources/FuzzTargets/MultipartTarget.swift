import Foundation
import TapedeckCore

/// The multipart parser (`MultipartParser`). The input's first line is the `Content-Type`, the rest the body, so the
/// body is a slice that does not start at index 0, as bodies cut from a larger buffer do; the body is also parsed
/// with the boundary found on its own first line.
enum MultipartTarget {
    static let target = FuzzTarget(
        name: "multipart",
        summary: "MultipartParser.parts with the boundary from a Content-Type line and from the body's first line"
    ) { data in
        let lineEnd = data.firstIndex(of: UInt8(ascii: "\n")) ?? data.endIndex
        let contentType = String(decoding: data[data.startIndex..<lineEnd], as: UTF8.self)
        let body = lineEnd < data.endIndex ? data[(lineEnd + 1)...] : Data()
        if let parts = try? MultipartParser.parts(of: body, contentType: contentType) {
            for part in parts { _ = (part.name, part.fileName, part.contentType) }
        }
        if let boundary = MultipartParser.leadingBoundary(of: body) {
            _ = try? MultipartParser.parts(of: body, boundary: boundary)
        }
    }
}
