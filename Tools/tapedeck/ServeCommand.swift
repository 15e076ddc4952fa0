import ArgumentParser
import Foundation
import TapedeckCLICore
import TapedeckStubServer
#if canImport(Glibc)
import Glibc
#endif

/// `tapedeck serve --stubs FILE`: run the stub server from a JSON stub-definition file until Ctrl-C or SIGTERM.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a JSON stub-definition file with the embedded stub server until Ctrl-C or SIGTERM.",
        discussion: """
            The file holds one stub definition, an array of them, or {"stubs": [...]} (see the TapedeckStubServer \
            documentation, "Stub definitions in JSON"). With --tls a certificate authority is made for this run, \
            the server speaks HTTPS for --host-name names, and the CA certificate's PEM is written to --ca-file \
            (printed), for example for curl --cacert.
            """
    )

    @Option(name: .long, help: "The JSON stub-definition file to serve.")
    var stubs: String

    @Option(name: .long, help: "The port to listen on (0 picks a free one).")
    var port: UInt16 = 8080

    @Option(name: .long, help: "The address to bind.")
    var host: String = "127.0.0.1"

    @Flag(name: .long, help: "Serve HTTPS with a certificate authority made for this run.")
    var tls = false

    @Option(name: .customLong("host-name"), help: "With --tls, a host name the certificate names (repeatable; default localhost).")
    var hostName: [String] = []

    @Option(name: .customLong("ca-file"), help: "With --tls, where to write the CA certificate (default: a file in the temporary folder).")
    var caFile: String?

    func run() async throws {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: stubs)) } catch {
            throw CLIError("could not read \(stubs): \(error.localizedDescription)")
        }
        let definitions: [StubDefinition]
        var prepared: [Stub] = []
        do {
            definitions = try StubDefinition.decodeList(data)
            for (index, definition) in definitions.enumerated() { prepared.append(try definition.makeStub(at: "stubs[\(index)]")) }
        } catch { throw CLIError("\(stubs): \(error.description)") }

        let waiter = SignalWaiter(signals: [SIGINT, SIGTERM])
        let configuration = StubServer.Configuration(host: host, port: port)
        let server: StubServer
        do {
            server = tls ? try StubServer.https(hostNames: hostName.isEmpty ? ["localhost"] : hostName, configuration: configuration)
                         : try StubServer(configuration: configuration)
        } catch { throw CLIError("\(error)") }
        for stub in prepared { server.add(stub) }
        Console.out("Serving \(prepared.count) stub(s) from \(stubs) on \(server.baseURL.absoluteString)")
        if tls, case .pem(let pem)? = server.configuration.trustedCertificates.first {
            let path = caFile ?? FileManager.default.temporaryDirectory.appendingPathComponent("tapedeck-serve-\(getpid())-ca.pem").path
            do { try pem.write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
                server.stop()
                throw CLIError("could not write the CA certificate to \(path): \(error.localizedDescription)")
            }
            Console.out("CA certificate (PEM): \(path)")
            Console.out("  e.g. curl --cacert \(path) https://\(hostName.first ?? "localhost"):\(server.port)/")
        }
        Console.out("Press Ctrl-C to stop.")
        let received = await waiter.next()
        server.stop()
        Console.out("Received \(received == SIGINT ? "SIGINT" : "SIGTERM"); stopped after \(server.journal.entries.count) request(s).")
    }
}

/// Turns SIGINT and SIGTERM into an async value instead of killing the process.
final class SignalWaiter: @unchecked Sendable {
    // Dispatch sources are thread-safe; they are only kept alive here.
    private var sources: [any DispatchSourceSignal] = []
    private let stream: AsyncStream<Int32>

    init(signals: [Int32]) {
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        self.stream = stream
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            sources.append(source)
        }
    }

    deinit { for source in sources { source.cancel() } }

    /// The next signal received.
    func next() async -> Int32 {
        for await number in stream { return number }
        return SIGTERM
    }
}
