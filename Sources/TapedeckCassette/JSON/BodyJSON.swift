import TapedeckCore

/// One-line renderings of JSON values for reports (contract violations, diffs).
public enum BodyJSON {
    /// A compact one-line rendering of a JSON value (for reports).
    public static func brief(_ value: CassetteJSON?, limit: Int = 60) -> String {
        guard let value else { return "(absent)" }
        return Shown.truncated(String(decoding: CassetteJSON.serialize(value), as: UTF8.self), limit: limit)
    }
}
