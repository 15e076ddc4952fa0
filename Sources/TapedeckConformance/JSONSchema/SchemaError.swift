/// A schema that cannot be compiled: where it is and what is wrong with it.
public struct SchemaError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The JSON pointer of the faulty keyword in the document the schema came from.
    public var schemaPointer: String
    /// What is wrong.
    public var reason: String

    /// Creates the error.
    public init(schemaPointer: String, reason: String) {
        self.schemaPointer = schemaPointer
        self.reason = reason
    }

    /// `invalid schema at POINTER: reason`.
    public var description: String { "invalid schema at \(schemaPointer.isEmpty ? "/" : schemaPointer): \(reason)" }
}
