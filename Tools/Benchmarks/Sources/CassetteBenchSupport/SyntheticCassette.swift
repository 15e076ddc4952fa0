import Foundation
import TapedeckCassette

/// Deterministic synthetic interactions shared by the cassette benchmarks and `Tools/bench/compare-vcrpy.sh`
/// (which converts the same cassette for vcrpy, so both tools load, save and replay identical traffic).
public enum SyntheticCassette {
    /// The URL of interaction `index`.
    public static func url(_ index: Int) -> String {
        "http://127.0.0.1:8000/items/\(index)?page=\(index % 7)&sort=name"
    }

    /// Interaction `index`: a GET with two headers answered by a ~100-byte JSON document.
    public static func interaction(_ index: Int) -> Interaction {
        let body = #"{"id":\#(index),"name":"item \#(index)","tags":["alpha","beta"],"price":"\#(index).99","inStock":true}"#
        return Interaction(
            request: .init(method: "GET", url: url(index), headers: ["Accept": "application/json", "User-Agent": "tapedeck-bench/1"]),
            outcome: .response(.init(
                statusCode: 200, reasonPhrase: "OK",
                headers: ["Content-Type": "application/json", "Content-Length": String(body.utf8.count),
                          "Server": "synthetic", "Date": "Sat, 21 Nov 2026 10:00:00 GMT"],
                body: CassetteBody(Data(body.utf8)))),
            metrics: TransferMetrics(connect: 0.0001, timeToFirstByte: 0.0008, total: 0.0009, httpVersion: "HTTP/1.1",
                                     remoteAddress: "127.0.0.1", remotePort: 8000),
            recordedAt: Date(timeIntervalSince1970: 1_790_000_000 + Double(index)))
    }

    /// A cassette of `count` interactions.
    public static func make(count: Int) -> Cassette {
        Cassette(interactions: (0..<count).map(interaction))
    }
}
