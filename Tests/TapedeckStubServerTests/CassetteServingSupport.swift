import Foundation
import TapedeckCassette
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer

/// What a client got for one request, as the parity tests compare it: the status, the headers that matter, the
/// body bytes, or the `URLError` code.
struct ClientOutcome: Equatable, CustomStringConvertible {
    var status: Int?
    var headers: [String]
    var body: Data
    var errorCode: Int?

    /// Headers a server sets for its own connection, which differ between any two servers.
    static let connectionHeaders: Set<String> = ["date", "connection", "keep-alive"]

    init(_ response: HTTPResponse) {
        status = response.statusCode
        headers = response.headers.fields
            .filter { !Self.connectionHeaders.contains($0.name.lowercased()) }
            .map { "\($0.name.lowercased()): \($0.value)" }
            .sorted()
        body = response.data ?? Data()
        errorCode = nil
    }

    init(error: Error) {
        status = nil
        headers = []
        body = Data()
        errorCode = (error as? URLError)?.code.rawValue ?? Int.min
    }

    /// Sends `request` and captures the outcome.
    static func of(_ request: HTTPRequest, over transport: any HTTPTransport) async -> ClientOutcome {
        do { return ClientOutcome(try await transport.send(request)) } catch { return ClientOutcome(error: error) }
    }

    var description: String {
        if let errorCode { return "URLError \(errorCode)" }
        return "\(status ?? 0) \(headers) \(body.count) bytes"
    }
}

/// Whether `needle` occurs anywhere in `data`.
func bytes(_ data: Data, contain needle: String) -> Bool {
    data.range(of: Data(needle.utf8)) != nil
}

/// Every file under `directory` (the cassette, its sidecar bodies, journal), concatenated.
func allBytes(under directory: URL) -> Data {
    var result = Data()
    guard let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else { return result }
    for case let file as URL in files {
        if let data = try? Data(contentsOf: file) { result.append(data) }
    }
    return result
}
