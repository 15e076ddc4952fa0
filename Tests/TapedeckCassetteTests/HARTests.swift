import Foundation
import Testing
import TapedeckCassette

@Suite struct HARTests {
    static func sample() -> Cassette {
        var failing = interaction("GET", "http://127.0.0.1:1/down")
        failing.outcome = .failure(.init(code: URLError.Code.cannotConnectToHost.rawValue, message: "refused", transportCode: 7, transportMessage: "Failed to connect"))
        var binary = interaction("POST", "https://127.0.0.1:2/upload?a=1&b=x%20y", headers: ["Content-Type": "application/octet-stream"])
        binary.request.body = CassetteBody(Data([0, 255, 1, 254]))
        binary.outcome = .response(.init(statusCode: 201, reasonPhrase: "Created", httpVersion: "HTTP/2", url: "https://127.0.0.1:2/final",
                                         headers: ["Content-Type": "image/png", "X-Dup": "1", "X-Dup": "2"], body: CassetteBody(Data([137, 80, 78, 71, 0, 200]))))
        binary.metrics = TransferMetrics(nameLookup: 0.001, connect: 0.002, tlsHandshake: 0.01, timeToFirstByte: 0.05, total: 0.0625,
                                         httpVersion: "HTTP/2", remoteAddress: "127.0.0.1", remotePort: 2)
        binary.peerCertificates = [Data([48, 130, 1, 10])]
        return Cassette(interactions: [interaction("GET", "http://127.0.0.1:1/json", responseBody: #"{"a":1}"#), failing, binary])
    }

    @Test func exportThenImportKeepsTheInteractions() throws {
        let cassette = Self.sample()
        let har = HARCodec.export(cassette)
        let root = try CassetteJSON.parse(har)
        #expect(root["log"]?["version"] == "1.2")
        #expect(root["log"]?["entries"]?.arrayValue?.count == 3)
        let imported = try HARCodec.import(har)
        #expect(imported.interactions.map(\.request) == cassette.interactions.map(\.request))
        #expect(imported.interactions.map(\.outcome) == cassette.interactions.map(\.outcome))
        #expect(imported.interactions.map(\.recordedAt) == cassette.interactions.map(\.recordedAt))
        #expect(imported.interactions[2].peerCertificates == cassette.interactions[2].peerCertificates)
        let (a, b) = (imported.interactions[2].metrics, cassette.interactions[2].metrics)
        #expect([a.nameLookup, a.connect, a.tlsHandshake, a.timeToFirstByte, a.total] == [b.nameLookup, b.connect, b.tlsHandshake, b.timeToFirstByte, b.total])
        #expect(a.remoteAddress == b.remoteAddress && a.remotePort == b.remotePort)
        // And the HAR exported again is the same document.
        #expect(HARCodec.export(imported) == har)
    }

    @Test func importsBrowserStyleHAR() throws {
        let har = """
        {"log": {"version": "1.2", "creator": {"name": "WebInspector", "version": "537.36"}, "pages": [], "entries": [
          {"startedDateTime": "2024-03-01T10:00:00.250+01:00", "time": 12.5,
           "request": {"method": "POST", "url": "https://api.test/login", "httpVersion": "h2",
                       "headers": [{"name": ":authority", "value": "api.test"}, {"name": "content-type", "value": "application/x-www-form-urlencoded"}],
                       "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 17,
                       "postData": {"mimeType": "application/x-www-form-urlencoded", "params": [{"name": "user", "value": "a b"}, {"name": "x", "value": "1"}]}},
           "response": {"status": 200, "statusText": "", "httpVersion": "h2", "headers": [{"name": "content-type", "value": "image/gif"}],
                        "cookies": [], "content": {"size": 3, "mimeType": "image/gif", "text": "R0lG", "encoding": "base64"},
                        "redirectURL": "", "headersSize": -1, "bodySize": 3},
           "cache": {}, "timings": {"blocked": 1, "dns": -1, "connect": -1, "send": 0.5, "wait": 10, "receive": 1, "ssl": -1}}
        ]}}
        """
        let cassette = try HARCodec.import(Data(har.utf8))
        let only = try #require(cassette.interactions.first)
        #expect(only.request.headers.map(\.name) == ["content-type"])
        #expect(only.request.body.inlineData == Data("user=a%20b&x=1".utf8))
        #expect(only.response?.body.inlineData == Data("GIF".utf8))
        #expect(only.recordedAt == Date(timeIntervalSince1970: 1_709_283_600.25))
        #expect(only.metrics.total == 0.0125)
        var player = CassettePlayer(cassette: cassette)
        guard case .success = player.play(live("POST", "https://api.test/login")) else {
            Issue.record("an imported HAR must replay")
            return
        }
    }

    @Test func invalidHARNamesThePlace() {
        #expect {
            try HARCodec.import(Data(#"{"log": {"entries": [{"request": {"method": "GET"}}]}}"#.utf8))
        } throws: { error in
            guard case CassetteError.invalidHAR(let path, _) = error else { return false }
            return path == "log.entries[0].request.url"
        }
    }
}
