import Foundation
import TapedeckCassette
import TapedeckCore

/// How a recorded body is written in a Pact v3 contract, chosen by its `Content-Type` the way Pact's core reads a v3
/// body back (checked with the reference verifier, pact_ffi 0.5): a JSON media type (`application/json`,
/// `application/*+json`) is read as JSON, so the body goes in as a JSON value; text media types (`text/*`,
/// `application/x-www-form-urlencoded`, `application/xml`, `application/*+xml`) and a body without a content type are
/// read as the string itself; every other media type is read as base64, so the body goes in as its bytes in base64
/// (Pact v3 has no other binary form).
///
/// A body with no faithful v3 form is refused with the reason: a JSON-labelled body that is not JSON, a text body that
/// is not UTF-8, and a body that is not UTF-8 without a content type.
enum PactBody {
    /// The contract's `body` value for `data` sent with `contentType`, or why there is none.
    static func value(of data: Data, contentType: String?) -> Result<CassetteJSON, Refusal> {
        let mediaType = contentType.map(MediaType.essence(of:))
        if let mediaType, isJSON(mediaType) {
            guard let json = CassetteJSON.parseBody(data) else { return .failure(Refusal("its \(mediaType) body is not JSON")) }
            return .success(json)
        }
        if mediaType.map(isText) ?? true {
            guard let text = String(validating: data, as: UTF8.self) else {
                return .failure(Refusal(mediaType.map { "its \($0) body is not UTF-8 text" } ?? "its body has no Content-Type and is not UTF-8 text"))
            }
            return .success(.string(text))
        }
        return .success(.string(data.base64EncodedString()))
    }

    /// Why a body has no Pact v3 form.
    struct Refusal: Error, Equatable {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    static func isJSON(_ mediaType: String) -> Bool {
        mediaType == "application/json" || (mediaType.hasPrefix("application/") && mediaType.hasSuffix("+json"))
    }

    static func isText(_ mediaType: String) -> Bool {
        mediaType.hasPrefix("text/") || mediaType == "application/x-www-form-urlencoded" || mediaType == "application/xml"
            || (mediaType.hasPrefix("application/") && mediaType.hasSuffix("+xml"))
    }
}
