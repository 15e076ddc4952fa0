import Foundation
import Tapedeck
import TapedeckCurl
import TapedeckStubServer

// Usage: pinning-cost [requests per mode]
// Each request carries `Connection: close`, so every one is a new TCP connection and a full TLS handshake.
// Modes alternate request by request so drift on a shared machine hits them alike.
let count = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 200
let host = "bench.test"
let authority = try TestCertificateAuthority()
let server = try StubServer(configuration: .init(tls: authority.issue(for: [host])))
defer { server.stop() }
server.route(.get, "/ping", response: .text("pong"))
let transport = CurlTransport(configuration: .init(connectTo: ["\(host)::127.0.0.1:\(server.port)"],
                                                   trustedCertificates: [authority.trustAnchor]))

let modes: [(String, SecurityPolicy?)] = [
    ("no policy (libcurl verification)", nil),
    ("default policy, evaluated", .default),
    ("public-key pinning (CA)", try SecurityPolicy(pinningMode: .publicKey, pinnedCertificates: [authority.trustAnchor])),
    ("certificate pinning (CA)", try SecurityPolicy(pinningMode: .certificate, pinnedCertificates: [authority.trustAnchor])),
]

func request(_ policy: SecurityPolicy?) -> HTTPRequest {
    var request = HTTPRequest(url: URL(string: "https://\(host)/ping")!, headers: ["Connection": "close"])
    request.tls.serverTrustPolicy = policy?.serverTrustPolicy
    return request
}

var handshakes = Array(repeating: [Double](), count: modes.count)
var totals = Array(repeating: [Double](), count: modes.count)
for (index, mode) in modes.enumerated() { _ = try await transport.send(request(mode.1)); _ = index }  // warm-up
for _ in 0..<count {
    for (index, mode) in modes.enumerated() {
        let response = try await transport.send(request(mode.1))
        precondition(!response.metrics.connectionReused && response.data == Data("pong".utf8))
        handshakes[index].append(response.metrics.tlsHandshake - response.metrics.connect)
        totals[index].append(response.metrics.total)
    }
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
func p90(_ values: [Double]) -> Double { values.sorted()[values.count * 9 / 10] }
let baseline = median(handshakes[0])
print("\(count) fresh-connection HTTPS requests per mode (libcurl \(CurlTransport.libcurlVersion), ECDSA P-256 leaf + CA)")
print("mode".padding(toLength: 34, withPad: " ", startingAt: 0) + "  TLS handshake median / p90     request total median   vs no policy")
for (index, mode) in modes.enumerated() {
    let name = mode.0.padding(toLength: 34, withPad: " ", startingAt: 0)
    let line = String(format: "%@  %7.0f µs / %7.0f µs      %7.0f µs             %+6.0f µs",
                      name, median(handshakes[index]) * 1e6, p90(handshakes[index]) * 1e6,
                      median(totals[index]) * 1e6, (median(handshakes[index]) - baseline) * 1e6)
    print(line)
}
transport.shutdown()
