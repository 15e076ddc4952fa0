import Foundation
import Tapedeck
import TapedeckStubServer

/// The server's side of `Digest` for tests: the challenge a stub sends, and the check of an `Authorization` answer
/// (with the client's cnonce and nc) that a stub handler runs.
struct DigestTestServer: Sendable {
    var realm = "tapedeck@127.0.0.1"
    var nonce = "dcd98b7102dd2f0e8b11d0f600bfb0c093"
    var opaque = "5ccc069c403ebaf9f0171e9517f40e41"
    var algorithm = DigestAlgorithm.md5
    var qop: String? = "auth"
    var userhash = false
    var stale = false
    var credential = Credential(user: "Mufasa", password: "Circle of Life")

    /// The `WWW-Authenticate` value.
    var challenge: String {
        var value = #"Digest realm="\#(realm)", nonce="\#(nonce)", opaque="\#(opaque)", algorithm=\#(algorithm.rawValue)"#
        if let qop { value += #", qop="\#(qop)""# }
        if userhash { value += ", userhash=true" }
        if stale { value += ", stale=true" }
        return value
    }

    /// `nil` when `request` carries a right answer, else why not.
    func refusal(of request: RecordedRequest, header: String = "Authorization") -> String? {
        guard let value = request.headers[header] else { return "no \(header)" }
        guard let answer = AuthenticationChallenge.parse(value).first, answer.scheme == .digest else { return "not Digest: \(value)" }
        let uri = request.path + (request.query.map { "?\($0)" } ?? "")
        let expectedName = userhash ? algorithm.hexDigest("\(credential.user):\(realm)") : credential.user
        guard answer["username"] == expectedName else { return "username \(answer["username"] ?? "none"), expected \(expectedName)" }
        guard answer.realm == realm, answer["nonce"] == nonce, answer["opaque"] == opaque else { return "realm, nonce or opaque differ" }
        guard answer["uri"] == uri else { return "uri \(answer["uri"] ?? "none"), expected \(uri)" }
        let chosenQop = answer["qop"].flatMap(DigestQualityOfProtection.init(rawValue:))
        let count = answer["nc"].flatMap { UInt32($0, radix: 16) } ?? 0
        let expected = DigestAuthentication.response(
            algorithm: algorithm, user: credential.user, realm: realm, password: credential.password, nonce: nonce,
            clientNonce: answer["cnonce"] ?? "", nonceCount: count, qop: chosenQop, method: request.method, uri: uri,
            bodyDigest: algorithm.hexDigest(request.body))
        return answer["response"] == expected ? nil : "response \(answer["response"] ?? "none"), expected \(expected)"
    }

    /// A stub handler: 200 with a right answer, else 401 with the challenge (the refusal in the body).
    func respond(to request: RecordedRequest) -> StubResponse {
        if let refusal = refusal(of: request) {
            var response = StubResponse.text(refusal, status: 401)
            response.headers.add(name: "WWW-Authenticate", value: challenge)
            return response
        }
        return .text("welcome")
    }
}
