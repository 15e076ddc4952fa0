import Foundation
import TapedeckCore

/// Checks, when a cassette is loaded, that every ``StandIn`` in it was made with its ``RedactionSalt``: a stand-in
/// edited by hand, copied from another cassette, or left without its salt would no longer be the one its secret gets
/// elsewhere, so replayed state (a cookie sent back, a token echoed) would drift from the recording without a word.
enum StandInCheck {
    /// Throws ``CassetteError/invalidFormat(file:path:reason:)`` naming the first stand-in that fails, its interaction
    /// and where in it (the header, the URL or the body).
    static func validate(_ cassette: Cassette, file: String) throws(CassetteError) {
        for (index, interaction) in cassette.interactions.enumerated() {
            let base = "interactions[\(index)]"
            try check(interaction.request.url, path: base + ".request.url", place: "the request URL", cassette, file)
            try check(interaction.request.headers, path: base + ".request.headers", cassette, file)
            try check(interaction.request.body, path: base + ".request.body", place: "the request body", cassette, file)
            guard let response = interaction.response else { continue }
            if let url = response.url { try check(url, path: base + ".response.url", place: "the response URL", cassette, file) }
            try check(response.headers, path: base + ".response.headers", cassette, file)
            try check(response.body, path: base + ".response.body", place: "the response body", cassette, file)
        }
    }

    private static func check(_ headers: HTTPHeaders, path: String, _ cassette: Cassette, _ file: String) throws(CassetteError) {
        for (position, field) in headers.fields.enumerated() {
            try check(field.value, path: "\(path)[\(position)]", place: "header \(field.name)", cassette, file)
        }
    }

    private static func check(_ body: CassetteBody, path: String, place: String, _ cassette: Cassette, _ file: String) throws(CassetteError) {
        guard let data = body.inlineData, StandIn.mayContain(data) else { return }
        try check(String(decoding: data, as: UTF8.self), path: path, place: place, cassette, file)
    }

    private static func check(_ text: String, path: String, place: String, _ cassette: Cassette, _ file: String) throws(CassetteError) {
        guard StandIn.mayContain(text) else { return }
        for standIn in StandIn.all(in: text) {
            guard let salt = cassette.redactionSalt else {
                throw CassetteError.invalidFormat(
                    file: file, path: path,
                    reason: "\(place) holds the stand-in \(standIn), but the cassette has no redaction salt "
                        + "(\"redaction\": {\"salt\": …}); restore the salt from version control, or re-record the cassette")
            }
            guard StandIn.verifies(standIn, salt: salt) else {
                throw CassetteError.invalidFormat(
                    file: file, path: path,
                    reason: "\(place) holds \(standIn), which is not a stand-in made with this cassette's salt (edited "
                        + "by hand, or copied from another cassette); restore it, or write \(Redaction.placeholder) instead")
            }
        }
    }
}

extension StandIn {
    /// Whether `data` holds the prefix at all.
    static func mayContain(_ data: Data) -> Bool {
        data.withUnsafeBytes { mayContain($0) }
    }
}
