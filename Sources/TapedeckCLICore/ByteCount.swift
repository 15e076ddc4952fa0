/// Human-readable byte counts for tables and progress bars: `512 B`, `1.5 KiB`, `3.0 MiB`.
public enum ByteCount {
    /// `count` in B, KiB, MiB or GiB with one decimal above bytes.
    public static func format(_ count: Int64) -> String {
        let units = ["KiB", "MiB", "GiB", "TiB"]
        guard count >= 1024 else { return "\(count) B" }
        var value = Double(count) / 1024
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }
}
