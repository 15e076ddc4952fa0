import Foundation

/// One fuzz target: a name (`TAPEDECK_FUZZ_TARGET`, the corpus folder) and what it does with one input. A target
/// returns normally for any input the code under test handles (including by throwing its documented error) and
/// traps, through ``FuzzCheck/require(_:_:)``, when a property it checks does not hold.
public struct FuzzTarget: Sendable {
    /// The target's name, e.g. `cassette-json`.
    public let name: String
    /// What the target checks, for the usage text.
    public let summary: String
    /// Runs one input.
    public let run: @Sendable (Data) -> Void

    /// Every target, in the order `run.sh` and CI run them.
    public static let all: [FuzzTarget] = [
        CassetteJSONTarget.target,
        HARTarget.target,
        StubDefinitionTarget.target,
        FormQueryTarget.target,
        MultipartTarget.target,
        ResponseHeadTarget.target,
        ContentEncodingTarget.target,
        NetlinkTarget.target,
        StubServerHTTPTarget.target,
        OpenAPIDocumentTarget.target,
        SchemaGeneratorTarget.target,
        WireMockMappingTarget.target,
        VCRCassetteTarget.target,
        HeaderGrammarTargets.setCookie,
        HeaderGrammarTargets.wwwAuthenticate,
        HeaderGrammarTargets.cacheControl,
        WebSocketTargets.frames,
        WebSocketTargets.extensions,
        RegexPatternTarget.target,
    ]

    /// The target called `name`, if there is one.
    public static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }

    /// The list of targets, one a line, for messages.
    public static var usage: String { all.map { "  \($0.name): \($0.summary)" }.joined(separator: "\n") }
}

/// The checks targets make beyond "does not crash".
enum FuzzCheck {
    /// Traps with `message` when `condition` is false, so libFuzzer saves the input as a crash.
    static func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fatalError("fuzz property failed: \(message())") }
    }
}
