/// Renders one line of a transfer progress bar (written to stderr with a leading carriage return).
///
/// ```swift
/// ProgressBar.render(label: "download", completed: 512, total: 1024, width: 20)
/// // "download [##########          ]  50%  512 B / 1.0 KiB"
/// ```
public enum ProgressBar {
    /// The bar for `completed` of `total` bytes; with an unknown total only the count is shown.
    public static func render(label: String, completed: Int64, total: Int64?, width: Int = 30) -> String {
        guard let total, total > 0 else { return "\(label) \(ByteCount.format(completed))" }
        let fraction = min(1, max(0, Double(completed) / Double(total)))
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
        let percent = String(Int((fraction * 100).rounded(.down)))
        let paddedPercent = String(repeating: " ", count: 3 - percent.count) + percent
        return "\(label) [\(bar)] \(paddedPercent)%  \(ByteCount.format(completed)) / \(ByteCount.format(total))"
    }
}
