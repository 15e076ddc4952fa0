import Foundation
import TapedeckCore

/// The `multipart` match rule: two bodies match when they have the same parts, in order, compared without their
/// boundary (name, file name, content type ignoring case, and bytes). Pure logic over ``MultipartParser``.
enum MultipartComparison {
    /// The parts of `body`, with the boundary of `contentType` or else the one the body starts with; `nil` when it
    /// is not a well-formed multipart body.
    static func parts(_ body: Data, contentType: String?) -> [MultipartPart]? {
        guard let boundary = contentType.flatMap(MultipartParser.boundary(inContentType:)) ?? MultipartParser.leadingBoundary(of: body)
        else { return nil }
        return try? MultipartParser.parts(of: body, boundary: boundary)
    }

    /// `nil` when the parts match, or the near-miss line saying how they differ.
    static func difference(live: [MultipartPart]?, recorded: [MultipartPart]?) -> String? {
        guard let live, let recorded else {
            return live == nil && recorded == nil ? nil : "multipart body: one of the bodies is not multipart"
        }
        if live.count != recorded.count { return "multipart body: recorded \(recorded.count) parts, request \(live.count)" }
        for (index, (a, b)) in zip(live, recorded).enumerated() {
            let fields = [a.name != b.name ? "name" : nil, a.fileName != b.fileName ? "filename" : nil,
                          a.contentType?.lowercased() != b.contentType?.lowercased() ? "content type" : nil,
                          a.body != b.body ? "content" : nil].compactMap { $0 }
            if !fields.isEmpty { return "multipart body: part \(index) (\(b.name ?? "?")) differs in " + fields.joined(separator: ", ") }
        }
        return nil
    }
}
