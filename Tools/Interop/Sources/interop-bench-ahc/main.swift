import AsyncHTTPClient
import Foundation
import NIOCore

/// AsyncHTTPClient's side of the live comparison in Tools/bench: `interop-bench-ahc URL COUNT` makes COUNT sequential
/// GETs of URL (a loopback stub server) over one connection, reads each body to its end, and prints the figures in
/// the shape `tapedeck-bench-client` prints them, so the two can be paired by the same script.
let arguments = CommandLine.arguments
guard arguments.count == 3, let url = URL(string: arguments[1]), let count = Int(arguments[2]), count > 0 else {
    FileHandle.standardError.write(Data("usage: interop-bench-ahc URL COUNT\n".utf8))
    exit(2)
}
let client = HTTPClient(eventLoopGroupProvider: .singleton)
let start = ContinuousClock.now
for _ in 0..<count {
    let response = try await client.execute(HTTPClientRequest(url: url.absoluteString), timeout: .seconds(30))
    let body = try await response.body.collect(upTo: 1 << 20)
    guard response.status == .ok, body.readableBytes > 0 else {
        FileHandle.standardError.write(Data("GET \(url) gave \(response.status)\n".utf8))
        exit(1)
    }
}
let elapsed = ContinuousClock.now - start
let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
print("requests=\(count) seconds=\(seconds) per_request_us=\(seconds / Double(count) * 1e6)")
try await client.shutdown()
