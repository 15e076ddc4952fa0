/// One-line renderings of JSON values for reports (contract violations, diffs).
public enum BodyJSON {
    /// A compact one-line rendering of a JSON value (for reports).
    public static func brief(_ value: CassetteJSON?, limit: Int = 60) -> String {
        guard let value else { return "(absent)" }
        let text = String(decoding: CassetteJSON.serialize(value), as: UTF8.self)
        return text.count > limit ? String(text.prefix(limit - 1)) + "…" : text
    }
}
