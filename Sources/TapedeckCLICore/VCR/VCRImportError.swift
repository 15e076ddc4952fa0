/// Why a VCR cassette could not be imported: the file, the line and column in it, the path of the YAML node
/// (`interactions[3].response.status.code`) and what was wrong there.
public struct VCRImportError: Error, CustomStringConvertible, Equatable {
    /// The file, as given.
    public let file: String
    /// The 1-based line of the node, when known.
    public let line: Int?
    /// The 1-based column of the node, when known.
    public let column: Int?
    /// Where in the document, e.g. `http_interactions[0].response.body`.
    public let path: String
    /// What was wrong.
    public let message: String

    /// Creates an error.
    public init(file: String, line: Int? = nil, column: Int? = nil, path: String, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.path = path
        self.message = message
    }

    /// `file:line:column: path: message`.
    public var description: String {
        let place = line.map { line in column.map { "\(file):\(line):\($0)" } ?? "\(file):\(line)" } ?? file
        return path.isEmpty ? "\(place): \(message)" : "\(place): \(path): \(message)"
    }
}
