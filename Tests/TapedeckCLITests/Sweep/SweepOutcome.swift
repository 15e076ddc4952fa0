import Foundation

/// How one run of the CLI on a damaged file ended.
enum SweepClass: String, CaseIterable, Sendable, Comparable {
    /// Exit 0, a report of findings, or a server that started and stopped when asked.
    case ok
    /// A non-zero exit with an error that names the file, and no NSCocoaErrorDomain code.
    case refusal = "clear refusal"
    /// Ended by a signal it was not sent.
    case crash
    /// Still running when its time was up.
    case hang
    /// A non-zero exit with an empty message, one that does not name the file, or an NSCocoaErrorDomain code.
    case unclear

    /// Whether the sweep fails on it.
    var isFailure: Bool { self == .crash || self == .hang || self == .unclear }

    static func < (lhs: SweepClass, rhs: SweepClass) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// What a finished run left: the pure input of ``classify``.
struct SweepEnding: Sendable {
    enum Termination: Sendable, Equatable {
        case exit(Int32)
        case signal(Int32)
        case timedOut
    }

    var termination: Termination
    var stdout: String
    var stderr: String

    /// The class of this ending for `verb` run on `file` (the damaged input's path). A serving verb stopped by the
    /// sweep's own SIGINT counts as an exit 0.
    func classify(verb: SweepVerb, file: String) -> SweepClass {
        switch termination {
        case .timedOut: return .hang
        case .signal(SIGINT) where verb.serves: return .ok
        case .signal: return .crash
        case .exit(0): return .ok
        case .exit(let status):
            let message = stderr.trimmingCharacters(in: .whitespacesAndNewlines)
            if verb.reportsFindings, status == 1, message.isEmpty { return .ok }
            if message.isEmpty || message.contains("NSCocoaErrorDomain") { return .unclear }
            let name = (file as NSString).lastPathComponent
            return message.contains(file) || message.contains(name) ? .refusal : .unclear
        }
    }

    /// Whether a refusal also says where in the file: a line and column, a JSON path or pointer (a top-level member
    /// too: `at version: missing`), an index, a quoted key, a mapping path, or OpenAPIKit's "in .responses.404 for the **GET** endpoint under `/pets`". Counted
    /// beside the classes, as the issue's bar for every refusal.
    var namesAPlace: Bool {
        stderr.contains(/line \d+|column \d+|:\d+:\d+|\s\d+:\d+\b|\$[.\[]|\bat \$|\bat \/|#\/|\[\d+\]|\["|\bat \w+\.\w+|\bat \w+: |\b(interaction|entry|stub|mapping) #?\d+|\bin \.[^ ]+ for the \*\*[A-Z]+\*\* endpoint under/)
    }
}
