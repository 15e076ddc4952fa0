import Foundation

extension CassetteJSON: JSONWritable {
    /// The value as JSON text in `style`: members in their order, numbers as spelled.
    public static func serialize(_ value: CassetteJSON, style: JSONWritingStyle = .compact) -> Data {
        JSONWriter.serialize(value, style: style)
    }

    /// Writes the value as it is held: members in their order, numbers as spelled.
    public func write(to writer: inout JSONWriter, level: Int) {
        switch self {
        case .null: writer.output.append("null")
        case .bool(let flag): writer.output.append(flag ? "true" : "false")
        case .number(let text): writer.output.append(utf8: text)
        case .string(let string): writer.writeString(string)
        case .array(let elements): writer.writeArray(elements, level: level)
        case .object(let members): writer.writeObject(members.lazy.map { (key: $0.key, value: $0.value) }, level: level)
        }
    }
}

extension JSONWriter {
    /// A member whose value is a ``CassetteJSON``, so that the codec can name its cases (`.string(…)`, `.bool(…)`).
    mutating func member(_ name: String, _ value: CassetteJSON, in object: inout Container) {
        key(name, in: &object)
        value.write(to: &self, level: object.childLevel)
    }

    /// A whole ``CassetteJSON`` value at nesting `level`.
    mutating func write(_ value: CassetteJSON, level: Int) {
        value.write(to: &self, level: level)
    }
}
