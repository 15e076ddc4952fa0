import Foundation
import TapedeckCore
import TapedeckStubServer

// The server half of Tools/bench/compare-download.sh and session-transfers.sh; the clients are
// `tapedeck-bench-client`, a separate binary that links only the client stack, so its start-up and peak RSS are a
// client's alone.
//
//   tapedeck-bench-download serve     serve /big (1 GiB generated), /small, /small.json and /upload on 127.0.0.1;
//                                     print the port, exit when stdin closes or on a signal

let bigLength: Int64 = 1 << 30

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("tapedeck-bench-download: \(message)\n".utf8))
    exit(1)
}

func serve() throws {
    let server = try StubServer(configuration: .init(journalCapacity: 16))
    server.route(.get, "/small", response: .text("ok"))
    server.route(.get, "/small.json", response: .json(["ok": true]))
    server.route(.get, "/big", response: StubResponse(body: .generated(length: bigLength)))
    // Uploads are counted and hashed by the server, not kept whole (the journal keeps 8 MiB of a body at most).
    server.route(nil, "/upload") { request in .text("\(request.bodyLength)") }
    FileHandle.standardOutput.write(Data("\(server.port)\n".utf8))
    // Block until stdin reaches end of file (the script closes its end, or dies); SIGTERM/SIGINT end the process
    // through their default action.
    var buffer = [UInt8](repeating: 0, count: 256)
    while read(STDIN_FILENO, &buffer, buffer.count) > 0 {}
    server.stop()
}

switch CommandLine.arguments.dropFirst().first {
case "serve" where CommandLine.arguments.count == 2:
    try serve()
default:
    fail("usage: tapedeck-bench-download serve")
}
