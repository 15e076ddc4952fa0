import Foundation
import TapedeckCassette

/// Interactions of the shape real API traffic has, for the client-level replay benchmarks: a GET with a query and the
/// eight headers a client sends, answered by about 300 bytes of JSON with the eight headers a server sends.
public enum RealisticCassette {
    /// The base URL the requests are made against.
    public static let baseURL = URL(string: "http://127.0.0.1:8000/v1")!

    /// The path of interaction `index`, relative to ``baseURL``.
    public static func path(_ index: Int) -> String { "items/\(index)" }

    /// The query parameters of interaction `index`.
    public static func page(_ index: Int) -> Int { index % 7 }

    /// The full URL of interaction `index`, as the client's serializer spells it.
    public static func url(_ index: Int) -> String { "http://127.0.0.1:8000/v1/items/\(index)?page=\(page(index))&sort=name" }

    /// The request headers of interaction `index`.
    public static func requestHeaders(_ index: Int) -> HTTPHeaders {
        ["Accept": "application/json", "Accept-Language": "en;q=1", "User-Agent": "bench/1", "Accept-Encoding": "gzip",
         "X-Client": "tapedeck", "X-Request-Id": "r-\(index)", "Cache-Control": "no-cache", "Connection": "keep-alive"]
    }

    /// Interaction `index`.
    public static func interaction(_ index: Int) -> Interaction {
        let body = #"{"id":\#(index),"name":"item \#(index)","description":"A realistic item with a few fields of text","#
            + #""tags":["alpha","beta","gamma"],"price":{"amount":"\#(index).99","currency":"EUR"},"inStock":true,"#
            + #""rating":4.5,"updatedAt":"2026-11-21T10:00:00Z","owner":{"id":42,"login":"ada"}}"#
        return Interaction(
            request: .init(method: "GET", url: url(index), headers: requestHeaders(index)),
            outcome: .response(.init(
                statusCode: 200, reasonPhrase: "OK",
                headers: ["Date": "Sat, 21 Nov 2026 10:00:00 GMT", "Content-Type": "application/json; charset=utf-8",
                          "Content-Length": String(body.utf8.count), "Cache-Control": "private, max-age=0",
                          "ETag": "\"e\(index)\"", "Server": "nginx", "Vary": "Accept-Encoding", "X-Request-Id": "r-\(index)"],
                body: CassetteBody(Data(body.utf8)))),
            metrics: TransferMetrics(total: 0.001), recordedAt: Date(timeIntervalSince1970: 1_790_000_000))
    }

    /// A cassette of `count` interactions.
    public static func make(count: Int) -> Cassette {
        Cassette(interactions: (0..<count).map(interaction))
    }
}
