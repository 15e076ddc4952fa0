/// A plain-text table with columns padded to their widest cell, for terminal output.
///
/// ```swift
/// var table = TextTable(header: ["#", "method", "url"])
/// table.append(["0", "GET", "http://127.0.0.1/get"])
/// print(table.render())
/// ```
public struct TextTable: Sendable {
    /// The header row.
    public var header: [String]
    /// The body rows; each has as many cells as the header (missing cells render empty).
    public var rows: [[String]]
    /// Columns whose cells are right-aligned (numbers).
    public var rightAligned: Set<Int>

    /// Creates an empty table.
    public init(header: [String], rightAligned: Set<Int> = []) {
        self.header = header
        self.rows = []
        self.rightAligned = rightAligned
    }

    /// Adds a row.
    public mutating func append(_ row: [String]) { rows.append(row) }

    /// The table as lines joined by newlines, columns separated by two spaces, no trailing spaces. `style` styles
    /// the header (e.g. bold when colour is on).
    public func render(style: TerminalStyle = .plain) -> String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
        func line(_ row: [String]) -> String {
            let cells = header.indices.map { column -> String in
                let cell = column < row.count ? row[column] : ""
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return rightAligned.contains(column) ? pad + cell : cell + pad
            }
            var text = cells.joined(separator: "  ")
            while text.last == " " { text.removeLast() }
            return text
        }
        return ([style.bold(line(header))] + rows.map(line)).joined(separator: "\n")
    }
}
