import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a command with `posix_spawnp` (not Foundation's `Process`, whose `run()` on Linux over-reads a directory
/// buffer in Swift 6.3, swift-corelibs-foundation PR #5472) with extra environment variables and the tool's own
/// standard streams, and waits for it.
struct ChildCommand {
    /// How a run ended.
    enum Ending: Equatable {
        case exited(Int32)
        case signalled(Int32)
        /// Killed after the time limit.
        case timedOut

        /// The status a shell gives for this ending: the exit status, or 128 plus the signal that ended it.
        var shellStatus: Int32 {
            switch self {
            case .exited(let status): status
            case .signalled(let signal): 128 + signal
            case .timedOut: 128 + SIGKILL
            }
        }
    }

    /// A started command.
    struct Started: Sendable {
        let pid: pid_t
        let name: String

        /// Sends `signal` to the command.
        func send(_ signal: Int32) { kill(pid, signal) }

        /// Waits (polling, so that the caller's thread can be given a limit) until the command ends, killing it
        /// after `limit` seconds when one is given.
        func wait(limit: TimeInterval? = nil) throws -> Ending {
            let deadline = limit.map { Date().addingTimeInterval($0) }
            var status: Int32 = 0
            while true {
                let waited = waitpid(pid, &status, WNOHANG)
                if waited == pid { break }
                if waited < 0, errno != EINTR { throw CLIError("waiting for \(name): \(String(cString: strerror(errno)))") }
                if let deadline, Date() >= deadline {
                    kill(pid, SIGKILL)
                    _ = waitpid(pid, &status, 0)
                    return .timedOut
                }
                usleep(5_000)
            }
            let signal = status & 0x7F
            return signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal)
        }
    }

    let arguments: [String]

    /// Starts the command with `environment` over the tool's own (a value of `nil` removes the variable).
    func start(adding environment: [String: String?]) throws -> Started {
        var merged = ProcessInfo.processInfo.environment
        for (name, value) in environment { merged[name] = value }
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = merged.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, arguments[0], nil, nil, argv, envp)
        guard spawned == 0 else { throw CLIError("cannot run \(arguments[0]): \(String(cString: strerror(spawned)))") }
        return Started(pid: pid, name: arguments[0])
    }

    /// Runs the command with `environment` added to the tool's own, killing it after `limit` seconds.
    func run(adding environment: [String: String], limit: TimeInterval) throws -> Ending {
        try start(adding: environment.mapValues { $0 }).wait(limit: limit)
    }
}
