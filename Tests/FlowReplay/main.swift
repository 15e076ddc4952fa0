import Foundation
import TapedeckCassette
import TapedeckTestSupport

// tapedeck-flow-replay CASSETTE FLOW BASE-URL SECRETS-JSON: replays one determinism-suite flow from a cassette and
// prints its trail as JSON on stdout.
let arguments = CommandLine.arguments
guard arguments.count == 5 else {
    FileHandle.standardError.write(Data("usage: tapedeck-flow-replay CASSETTE FLOW BASE-URL SECRETS-JSON\n".utf8))
    exit(2)
}
do {
    let secrets = try JSONDecoder().decode(SessionStateFlows.Secrets.self, from: Data(arguments[4].utf8))
    let transport = try CassetteTransport(cassette: URL(fileURLWithPath: arguments[1]), mode: .replay, environment: [:])
    let steps = try await SessionStateFlows.run(arguments[2], base: URL(string: arguments[3])!, secrets: secrets, over: transport)
    try transport.finish(requireAllPlayed: true)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    FileHandle.standardOutput.write(try encoder.encode(steps))
} catch {
    FileHandle.standardError.write(Data("tapedeck-flow-replay: \(error)\n".utf8))
    exit(1)
}
