import Foundation
import Testing
import TapedeckTestSupport
import TapedeckSession

/// `Digest` responses checked against Python: its `hashlib` computing RFC 7616's formulas for every algorithm and qop,
/// and `urllib.request`'s own Digest handler (MD5, qop `auth` or none, ASCII) as an independent implementation.
@Suite(.enabled(if: ExternalCommand.hasPython, "python3 is not installed: the Digest cross-check against Python is skipped"))
struct DigestPythonCrossCheckTests {
    struct Case: Encodable {
        var algorithm: String
        var qop: String?
        var user: String
        var password: String
        var realm: String
        var nonce: String
        var cnonce: String
        var nc: UInt32
        var method: String
        var uri: String
        var bodyHex: String
    }

    struct Expected: Decodable {
        var formula: String
        var userhash: String
        var urllib: String?
    }

    static let script = #"""
    import hashlib, json, re, sys, urllib.request

    SHA512_256 = lambda data: hashlib.new("sha512_256", data)
    HASHES = {"MD5": hashlib.md5, "MD5-sess": hashlib.md5, "SHA-256": hashlib.sha256, "SHA-256-sess": hashlib.sha256,
              "SHA-512-256": SHA512_256, "SHA-512-256-sess": SHA512_256}

    def h(algorithm, data):
        return HASHES[algorithm](data).hexdigest()

    def formula(c):
        algorithm = c["algorithm"]
        a1 = h(algorithm, f"{c['user']}:{c['realm']}:{c['password']}".encode())
        if algorithm.endswith("-sess"):
            a1 = h(algorithm, f"{a1}:{c['nonce']}:{c['cnonce']}".encode())
        a2 = f"{c['method']}:{c['uri']}"
        if c["qop"] == "auth-int":
            a2 += ":" + h(algorithm, bytes.fromhex(c["bodyHex"]))
        ha2 = h(algorithm, a2.encode())
        if c["qop"] is None:
            return h(algorithm, f"{a1}:{c['nonce']}:{ha2}".encode())
        return h(algorithm, f"{a1}:{c['nonce']}:{c['nc']:08x}:{c['cnonce']}:{c['qop']}:{ha2}".encode())

    class FixedNonce(urllib.request.AbstractDigestAuthHandler):
        def __init__(self, cnonce):
            super().__init__(urllib.request.HTTPPasswordMgr())
            self.fixed = cnonce
        def get_cnonce(self, nonce):
            return self.fixed

    def with_urllib(c):
        text = c["user"] + c["password"] + c["realm"] + c["uri"]
        if c["algorithm"] != "MD5" or c["qop"] not in (None, "auth") or not text.isascii() or not c["user"] or c["nc"] > 300:
            return None
        handler = FixedNonce(c["cnonce"])
        handler.passwd.add_password(c["realm"], "http://127.0.0.1/", c["user"], c["password"])
        request = urllib.request.Request("http://127.0.0.1" + c["uri"], method=c["method"])
        challenge = {"realm": c["realm"], "nonce": c["nonce"], "algorithm": "MD5"}
        if c["qop"]:
            challenge["qop"] = c["qop"]
        for _ in range(c["nc"] if c["qop"] else 1):
            header = handler.get_authorization(request, challenge)
        return re.search(r'response="([0-9a-f]+)"', header).group(1)

    cases = [dict({"qop": None}, **c) for c in json.load(sys.stdin)]
    print(json.dumps([{"formula": formula(c),
                       "userhash": h(c["algorithm"], f"{c['user']}:{c['realm']}".encode()),
                       "urllib": with_urllib(c)} for c in cases]))
    """#

    static var cases: [Case] {
        var cases: [Case] = []
        let people = [("Mufasa", "Circle of Life", "http-auth@example.org"), ("ada", "p:a\"ss\\w0rd", "r"),
                      ("J\u{E4}s\u{F8}n Doe", "Secret, or not?", "api@example.org"), ("", "", "")]
        let requests = [("GET", "/dir/index.html", ""), ("POST", "/api/items?x=1&y=%2F", "7b2261223a317d"),
                        ("PUT", "/", "00ff10"), ("DELETE", "/a%20b", "")]
        var index = 0
        for algorithm in DigestAlgorithm.allCases {
            for qop in [nil, "auth", "auth-int"] as [String?] {
                for (user, password, realm) in people {
                    let (method, uri, body) = requests[index % requests.count]
                    let nc: UInt32 = [1, 2, 255, 0x1000][index % 4]
                    cases.append(Case(algorithm: algorithm.rawValue, qop: qop, user: user, password: password, realm: realm,
                                      nonce: "nonce-\(index)/+=", cnonce: "c\(index)", nc: nc, method: method, uri: uri, bodyHex: body))
                    index += 1
                }
            }
        }
        return cases
    }

    static func bytes(hex: String) -> Data {
        var data = Data()
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            data.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return data
    }

    @Test func everyAlgorithmAndQopAgreesWithPython() async throws {
        let cases = Self.cases
        let python = try #require(ExternalCommand.find("python3"))
        let output = try await ExternalCommand.run(python, ["-c", Self.script], input: try JSONEncoder().encode(cases))
        #expect(output.status == 0, "python3 failed: \(output.standardError)")
        let expected = try JSONDecoder().decode([Expected].self, from: output.standardOutput)
        try #require(expected.count == cases.count)
        var checkedWithURLLib = 0
        for (item, python) in zip(cases, expected) {
            let algorithm = try #require(DigestAlgorithm(rawValue: item.algorithm))
            let qop = item.qop.flatMap(DigestQualityOfProtection.init(rawValue:))
            let bodyDigest = algorithm.hexDigest(Self.bytes(hex: item.bodyHex))
            let mine = DigestAuthentication.response(
                algorithm: algorithm, user: item.user, realm: item.realm, password: item.password, nonce: item.nonce,
                clientNonce: item.cnonce, nonceCount: item.nc, qop: qop, method: HTTPMethod(item.method), uri: item.uri,
                bodyDigest: bodyDigest)
            #expect(mine == python.formula, "\(item)")
            #expect(algorithm.hexDigest("\(item.user):\(item.realm)") == python.userhash)
            if let fromURLLib = python.urllib {
                #expect(mine == fromURLLib, "urllib.request disagrees on \(item)")
                checkedWithURLLib += 1
            }
        }
        #expect(checkedWithURLLib >= 4)
    }

    @Test func theWholeAnswerAgreesWithPythonForEveryAlgorithm() async throws {
        // The same check through `authorization(for:…)`, which chooses qop and hashes the body itself.
        let python = try #require(ExternalCommand.find("python3"))
        var cases: [Case] = []
        var answers: [DigestAuthorization] = []
        for algorithm in DigestAlgorithm.allCases {
            for qop in ["auth", "auth-int"] {
                let parsed = AuthenticationChallenge.parse(
                    #"Digest realm="tapedeck", nonce="n-\#(algorithm.rawValue)", qop="\#(qop)", algorithm=\#(algorithm.rawValue)"#)
                let challenge = try #require(parsed.first.flatMap(DigestChallenge.init))
                let body = Data("{\"k\":\"v\"}".utf8)
                let answer = try #require(DigestAuthentication(makeClientNonce: { "fixed-cnonce" }).authorization(
                    for: challenge, credential: Credential(user: "u", password: "p"), method: .post,
                    uri: "/submit?id=7", body: .data(body), nonceCount: 3))
                answers.append(answer)
                cases.append(Case(algorithm: algorithm.rawValue, qop: qop, user: "u", password: "p", realm: "tapedeck",
                                  nonce: "n-\(algorithm.rawValue)", cnonce: "fixed-cnonce", nc: 3, method: "POST",
                                  uri: "/submit?id=7", bodyHex: body.map { String(format: "%02x", $0) }.joined()))
            }
        }
        let output = try await ExternalCommand.run(python, ["-c", Self.script], input: try JSONEncoder().encode(cases))
        let expected = try JSONDecoder().decode([Expected].self, from: output.standardOutput)
        #expect(answers.map(\.response) == expected.map(\.formula))
    }
}
