import Foundation
@testable import TapedeckCassette

/// `Content-Encoding` decoding as recording does it: `ContentCoding.isGzip` and `gunzip` (over the small
/// `Inflate` decoder) on the input as a gzip stream, `Inflate` on it as raw DEFLATE, and a round trip: the input
/// gzipped by `ContentCoding.gzip` gunzips back to itself.
enum ContentEncodingTarget {
    static let target = FuzzTarget(
        name: "content-encoding",
        summary: "ContentCoding.gunzip and Inflate on arbitrary bytes; gunzip(gzip(x)) == x"
    ) { data in
        if ContentCoding.isGzip(data, contentEncoding: "gzip") { _ = ContentCoding.gunzip(data) }
        _ = ContentCoding.gunzip(data)
        if let (output, consumed) = Inflate.decode([UInt8](data)) {
            FuzzCheck.require((0...data.count).contains(consumed), "Inflate consumed \(consumed) of \(data.count) bytes")
            _ = output
        }
        let roundTrip = ContentCoding.gunzip(ContentCoding.gzip(data))
        FuzzCheck.require(roundTrip == data, "gunzip(gzip(x)) differs from x for \(data.count) bytes")
    }
}
