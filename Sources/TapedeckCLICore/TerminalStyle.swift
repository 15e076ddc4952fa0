/// ANSI styling that is on only when stdout is a terminal and `NO_COLOR` is unset (https://no-color.org).
///
/// ```swift
/// let style = TerminalStyle.detect(isTerminal: isatty(1) == 1, environment: ProcessInfo.processInfo.environment)
/// print(style.red("FAIL"))
/// ```
public struct TerminalStyle: Sendable, Hashable {
    /// Whether escapes are written.
    public var enabled: Bool

    /// Styling on or off.
    public init(enabled: Bool) { self.enabled = enabled }

    /// No escapes.
    public static let plain = TerminalStyle(enabled: false)

    /// Colour when `isTerminal` and `NO_COLOR` is absent or empty.
    public static func detect(isTerminal: Bool, environment: [String: String]) -> TerminalStyle {
        TerminalStyle(enabled: isTerminal && (environment["NO_COLOR"] ?? "").isEmpty)
    }

    private func wrap(_ text: String, _ code: String) -> String { enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }

    /// Bold text.
    public func bold(_ text: String) -> String { wrap(text, "1") }
    /// Red text (failures, removals).
    public func red(_ text: String) -> String { wrap(text, "31") }
    /// Green text (passes, additions).
    public func green(_ text: String) -> String { wrap(text, "32") }
}
