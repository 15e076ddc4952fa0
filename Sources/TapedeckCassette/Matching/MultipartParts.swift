import Foundation

/// The parts of a `multipart/*` body, compared without their boundary.
struct MultipartPart: Hashable, Sendable {
    var name: String?
    var filename: String?
    var contentType: String?
    var content: Data
}

enum MultipartParts {
    /// The boundary named by a `Content-Type` header, or the one the body starts with.
    static func boundary(contentType: String?, body: Data) -> String? {
        if let contentType {
            for parameter in contentType.split(separator: ";").dropFirst() {
                let pieces = parameter.split(separator: "=", maxSplits: 1)
                if pieces.count == 2, pieces[0].trimmingCharacters(in: .whitespaces).lowercased() == "boundary" {
                    return pieces[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                }
            }
        }
        guard body.starts(with: Data("--".utf8)), let lineEnd = body.firstRange(of: Data("\r\n".utf8)) else { return nil }
        return String(decoding: body[body.startIndex + 2..<lineEnd.lowerBound], as: UTF8.self)
    }

    /// The parts of `body`, or `nil` when it is not multipart.
    static func parse(_ body: Data, contentType: String?) -> [MultipartPart]? {
        guard let boundary = boundary(contentType: contentType, body: body), !boundary.isEmpty else { return nil }
        let delimiter = Data("--\(boundary)".utf8)
        var parts: [MultipartPart] = []
        var cursor = body.startIndex
        guard let first = body.firstRange(of: delimiter, in: cursor..<body.endIndex) else { return nil }
        cursor = first.upperBound
        while true {
            if body[cursor...].starts(with: Data("--".utf8)) { return parts }
            guard body[cursor...].starts(with: Data("\r\n".utf8)) else { return nil }
            cursor += 2
            guard let next = body.firstRange(of: Data("\r\n".utf8) + delimiter, in: cursor..<body.endIndex) else { return nil }
            let section = body[cursor..<next.lowerBound]
            guard let split = section.firstRange(of: Data("\r\n\r\n".utf8)) ?? (section.starts(with: Data("\r\n".utf8)) ? section.startIndex..<section.startIndex + 2 : nil) else {
                return nil
            }
            let headerText = String(decoding: section[section.startIndex..<split.lowerBound], as: UTF8.self)
            var part = MultipartPart(content: Data(section[split.upperBound...]))
            for line in headerText.components(separatedBy: "\r\n") {
                let pieces = line.split(separator: ":", maxSplits: 1)
                guard pieces.count == 2 else { continue }
                let name = pieces[0].trimmingCharacters(in: .whitespaces).lowercased()
                let value = pieces[1].trimmingCharacters(in: .whitespaces)
                if name == "content-type" { part.contentType = value.lowercased() }
                if name == "content-disposition" {
                    part.name = parameter("name", in: value)
                    part.filename = parameter("filename", in: value)
                }
            }
            parts.append(part)
            cursor = next.upperBound
        }
    }

    static func parameter(_ key: String, in header: String) -> String? {
        for piece in header.split(separator: ";").dropFirst() {
            let pair = piece.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == key else { continue }
            return pair[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        return nil
    }
}
