import Foundation
import TapedeckCore
@testable import TapedeckCurl

/// The response-head parser (`ResponseHeadParser`), fed the input's lines one at a time as libcurl hands them over
/// (each with its line feed). The first byte decides whether redirects are followed. A head reported as final is
/// never an informational (1xx) one.
enum ResponseHeadTarget {
    static let target = FuzzTarget(
        name: "response-head",
        summary: "ResponseHeadParser over the input's lines; a final head is never a 1xx response"
    ) { data in
        // The first byte once chose whether redirects were skipped; libcurl no longer follows any, so it is only
        // passed over (the corpus keeps its meaning).
        guard !data.isEmpty else { return }
        var parser = ResponseHeadParser()
        var rest = data.dropFirst()
        while !rest.isEmpty {
            let end = rest.firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? rest.endIndex
            let line = rest[rest.startIndex..<end]
            rest = rest[end...]
            let outcome = line.withUnsafeBytes { parser.consume(line: $0) }
            if case .final(let statusCode, _, _, _) = outcome {
                FuzzCheck.require(!(100..<200).contains(statusCode), "a \(statusCode) head was reported as final")
            }
        }
    }
}
