/// The version of this Tapedeck release, in Semantic Versioning: the one place it is written. The `tapedeck` tool's
/// `--version` and the default `User-Agent` (`Tapedeck/1.0.0 (Linux; Swift)`) read it; `Tools/dev/bump-version.sh`
/// changes it, with the README's dependency line and the changelog's heading, and API.md says what each part of it
/// promises.
///
/// ```swift
/// print("made with Tapedeck \(TapedeckVersion.current)")   // made with Tapedeck 1.0.0
/// ```
public enum TapedeckVersion {
    /// `MAJOR.MINOR.PATCH`.
    public static let current = "1.0.0"
}
