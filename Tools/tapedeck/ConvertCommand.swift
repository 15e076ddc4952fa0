import ArgumentParser
import Foundation
import TapedeckCassette
import TapedeckCLICore

/// `tapedeck convert FILE --to har|cassette [-o OUT]`.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert between Tapedeck cassettes and HAR 1.2.",
        discussion: """
            The input may be either format (a .har extension or a top-level "log" key means HAR). Sidecar bodies are \
            inlined into HAR. Without -o the result goes to stdout; with -o it is written atomically.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case har, cassette
    }

    @Argument(help: "The cassette or HAR file to read.")
    var file: String

    @Option(name: .long, help: "The output format: har or cassette.")
    var to: Format

    @Option(name: [.customShort("o"), .long], help: "Write here instead of stdout.")
    var output: String?

    func run() throws {
        let loaded: LoadedCassette
        do { loaded = try LoadedCassette.load(path: file) } catch { throw CLIError(error.description) }
        let data: Data
        switch to {
        case .har:
            data = try HARCodec.export(loaded.cassette) { body in
                do { return try CassetteFile.bodyData(body, cassette: loaded.url) } catch { throw CLIError("\(error)") }
            }
        case .cassette:
            // Sidecar bodies are inlined so the new file stands alone.
            var cassette = loaded.cassette
            for index in cassette.interactions.indices {
                let interaction = cassette.interactions[index]
                if interaction.request.body.sidecarPath != nil {
                    cassette.interactions[index].request.body = CassetteBody(loaded.bodyData(interaction.request.body))
                }
                if case .response(var response) = interaction.outcome, response.body.sidecarPath != nil {
                    response.body = CassetteBody(loaded.bodyData(response.body), contentEncoding: response.body.contentEncoding)
                    cassette.interactions[index].outcome = .response(response)
                }
            }
            data = CassetteCodec.encode(cassette)
        }
        guard let output else {
            Console.outRaw(data)
            return
        }
        let url = URL(fileURLWithPath: output)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
        do {
            try data.write(to: temporary)
            guard rename(temporary.path, url.path) == 0 else { throw CLIError(String(cString: strerror(errno))) }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw CLIError("could not write \(output): \(error.localizedDescription)")
        }
        Console.err("Wrote \(loaded.cassette.interactions.count) interaction(s) as \(to.rawValue) to \(output)")
    }
}
