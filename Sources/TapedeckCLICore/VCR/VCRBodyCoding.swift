import Foundation
import TapedeckCassette
import TapedeckCore

/// How a VCR response body with a `Content-Encoding` is stored, decided from the bytes themselves.
///
/// vcrpy and Ruby VCR store what the recording client handed them, and clients differ: `requests` and `httpx` hand
/// over the decoded body but vcrpy keeps `Content-Encoding` (and the compressed `Content-Length`); `urllib` and
/// `http.client` hand over the bytes on the wire (stored as `!!binary`); `decode_compressed_response` decodes and
/// drops the header. So the header alone says nothing: a body counts as encoded only when it has the coding's magic
/// bytes (gzip) or a trial decode reads it whole (a zlib stream with its checksum, or a raw DEFLATE stream that ends
/// exactly at the last byte and is not plain text). A body that claims a coding and fails its decode is kept byte
/// for byte, header and all, with a note: nothing is ever shortened.
///
/// Decoded bodies are stored as Tapedeck's default transport records them (libcurl decodes and keeps the header):
/// a `gzip` body decoded, its `Content-Encoding` kept, so `tapedeck fetch` and the client stack get the decoded
/// bytes and `tapedeck serve` compresses them again for the wire; a `deflate` body decoded and its header dropped
/// (the stub server compresses only gzip).
///
/// ```swift
/// let outcome = VCRBodyCoding.decide(body, contentEncoding: "deflate")
/// // .decoded, .alreadyDecoded, .keptAsRecorded(reason) or .notEncoded
/// ```
enum VCRBodyCoding {
    /// What was found.
    enum Verdict: Equatable {
        /// No coding, `identity`, or an empty body.
        case notEncoded
        /// The bytes were encoded and are now decoded.
        case decoded
        /// The bytes were decoded by the recording client already.
        case alreadyDecoded
        /// The bytes are kept exactly as recorded, for this reason.
        case keptAsRecorded(String)
    }

    /// The stored body, what to do with the headers, and the verdict.
    struct Outcome: Equatable {
        var body: CassetteBody
        /// Whether `Content-Encoding` no longer applies (the body is stored plain, and `Content-Length` follows it).
        var dropsEncodingHeader: Bool
        var verdict: Verdict
    }

    /// Decides how to store `data`, announced with `contentEncoding` (the last `Content-Encoding` value).
    static func decide(_ data: Data, contentEncoding: String?) -> Outcome {
        let coding = contentEncoding?.lowercased().trimmingCharacters(in: .whitespaces) ?? ""
        if data.isEmpty || coding.isEmpty || coding == "identity" {
            return Outcome(body: CassetteBody(data), dropsEncodingHeader: false, verdict: .notEncoded)
        }
        switch coding {
        case "gzip", "x-gzip":
            guard data.count >= 2, data[data.startIndex] == 0x1F, data[data.startIndex + 1] == 0x8B else {
                return Outcome(body: CassetteBody(data), dropsEncodingHeader: false, verdict: .alreadyDecoded)
            }
            guard let plain = ContentCoding.gunzip(data) else {
                return kept(data, "Content-Encoding is \(coding) but the body is not a valid gzip stream")
            }
            return Outcome(body: CassetteBody(plain), dropsEncodingHeader: false, verdict: .decoded)
        case "deflate":
            // A zlib stream carries a checksum, so it is tried first; raw DEFLATE has none, and text can pass for it.
            if let plain = ContentCoding.inflateZlib(data) {
                return Outcome(body: CassetteBody(plain), dropsEncodingHeader: true, verdict: .decoded)
            }
            if looksLikeText(data) {
                return Outcome(body: CassetteBody(data), dropsEncodingHeader: true, verdict: .alreadyDecoded)
            }
            if let plain = ContentCoding.inflateRaw(data) {
                return Outcome(body: CassetteBody(plain), dropsEncodingHeader: true, verdict: .decoded)
            }
            return kept(data, "Content-Encoding is deflate but the body is neither a zlib nor a raw deflate stream, nor text")
        default:
            if !coding.contains(","), looksLikeText(data) {
                // e.g. br through requests with brotli installed: the client decoded it, vcrpy kept the header.
                return Outcome(body: CassetteBody(data), dropsEncodingHeader: true, verdict: .alreadyDecoded)
            }
            return kept(data, "Content-Encoding '\(coding)' is not one Tapedeck decodes")
        }
    }

    private static func kept(_ data: Data, _ reason: String) -> Outcome {
        Outcome(body: CassetteBody(data), dropsEncodingHeader: false,
                verdict: .keptAsRecorded("\(reason): the \(data.count) bytes are kept as recorded, with the header"))
    }

    /// Whether `data` is UTF-8 text without control characters other than tab, line feed, form feed and carriage
    /// return: what a decoded body looks like and a compressed stream (almost) never does.
    static func looksLikeText(_ data: Data) -> Bool {
        guard let text = String(validating: data, as: UTF8.self) else { return false }
        return !text.unicodeScalars.contains { scalar in
            (scalar.value < 0x20 && ![0x09, 0x0A, 0x0C, 0x0D].contains(scalar.value)) || scalar.value == 0x7F
        }
    }
}
