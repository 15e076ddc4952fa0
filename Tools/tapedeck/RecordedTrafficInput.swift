import TapedeckCassette
import TapedeckCLICore

/// How a verb takes the recorded traffic it is handed: a refusal becomes the verb's error, and what reading another
/// format found ("Read 12 interaction(s) from a Pact v3 contract …") goes to stderr.
extension LoadedCassette {
    /// The recorded traffic at `path`, read as `format`, or as its content says when `format` is `nil`.
    static func loadPrintingNotes(path: String, as format: RecordingFormat? = nil) throws(CLIError) -> LoadedCassette {
        let loaded: LoadedCassette
        do { loaded = try load(path: path, as: format) } catch { throw CLIError(error.description) }
        for note in loaded.notes { Console.err(note) }
        return loaded
    }
}

extension CassetteFileInput {
    /// The cassette file `verb` opens for `path`: the file itself, or a copy converted from a HAR or VCR file, which
    /// the caller removes (`defer { input.remove() }`).
    static func openPrintingNotes(path: String, verb: String) throws(CLIError) -> CassetteFileInput {
        let input: CassetteFileInput
        do { input = try open(path: path, verb: verb) } catch { throw CLIError(error.description) }
        for note in input.notes { Console.err(note) }
        return input
    }
}
