import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process started with `posix_spawn`, with the part of `Foundation.Process`'s API the tests use.
///
/// Foundation's `Process.run()` on Linux scans `/proc/self/fd` with a 256-byte copy of each directory entry's name,
/// reading past glibc's buffer; when that buffer ends at an unmapped page the whole test process dies with SIGSEGV
/// (swift-corelibs-foundation PR #5472, fixed after Swift 6.3; AddressSanitizer reports it as a heap-buffer-overflow
/// in `findMaximumOpenFromProcSelfFD`). A suite that starts hundreds of children met it in CI, so tests start
/// children here instead: descriptors above 2 are closed in the child by `posix_spawn_file_actions_addclosefrom_np`.
///
/// ```swift
/// let child = ChildProcess()
/// child.executableURL = URL(fileURLWithPath: "/bin/echo")
/// child.arguments = ["hello"]
/// let output = Pipe()
/// child.standardOutput = output
/// try child.run()
/// let text = output.fileHandleForReading.readDataToEndOfFile()
/// child.waitUntilExit()
/// ```
public final class ChildProcess: @unchecked Sendable {
    /// How the child ended.
    public enum TerminationReason: Sendable {
        case exit, uncaughtSignal
    }

    public var executableURL: URL?
    public var arguments: [String] = []
    /// The child's environment; `nil` inherits this process's.
    public var environment: [String: String]?
    public var currentDirectoryURL: URL?
    /// A `Pipe` or a `FileHandle` for each standard stream; `nil` inherits this process's.
    public var standardInput: Any?
    public var standardOutput: Any?
    public var standardError: Any?

    private let lock = NSLock()
    private var pid: pid_t = 0
    private var status: Int32?

    public init() {}

    /// The child's process ID (0 before ``run()``).
    public var processIdentifier: Int32 { lock.withLock { pid } }

    /// Starts the child.
    public func run() throws {
        guard let executable = executableURL?.path else { throw POSIXError(.ENOENT) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (stream, target) in [(standardInput, Int32(0)), (standardOutput, 1), (standardError, 2)] {
            if let descriptor = Self.descriptor(of: stream, reading: target == 0) {
                posix_spawn_file_actions_adddup2(&actions, descriptor, target)
            }
        }
        // glibc 2.34+ has these GNU extensions; Swift's Glibc module does not import them, so they are looked up.
        guard let closeFrom = Self.closeFrom, let changeDirectory = Self.changeDirectory else { throw POSIXError(.ENOSYS) }
        _ = closeFrom(&actions, 3)
        if let directory = currentDirectoryURL?.path { _ = changeDirectory(&actions, directory) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let variables = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            variables.forEach { free($0) }
        }
        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &actions, &attributes, argv, variables)
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EINVAL) }
        lock.withLock { pid = child }
        // The parent's copies of the child's ends, so that reading the output ends when the child does.
        for (stream, isInput) in [(standardInput, true), (standardOutput, false), (standardError, false)] {
            guard let pipe = stream as? Pipe else { continue }
            try? (isInput ? pipe.fileHandleForReading : pipe.fileHandleForWriting).close()
        }
    }

    /// Whether the child has started and not yet ended.
    public var isRunning: Bool {
        lock.withLock {
            guard pid > 0, status == nil else { return false }
            var raw: Int32 = 0
            if waitpid(pid, &raw, WNOHANG) == pid { status = raw }
            return status == nil
        }
    }

    /// Waits until the child has ended.
    public func waitUntilExit() {
        let child = lock.withLock { status == nil ? pid : 0 }
        guard child > 0 else { return }
        var raw: Int32 = 0
        while waitpid(child, &raw, 0) == -1 && errno == EINTR {}
        lock.withLock { if status == nil { status = raw } }
    }

    /// The exit code, or the signal that ended the child.
    public var terminationStatus: Int32 {
        guard let raw = lock.withLock({ status }) else { return 0 }
        return raw & 0x7F == 0 ? (raw >> 8) & 0xFF : raw & 0x7F
    }

    public var terminationReason: TerminationReason {
        guard let raw = lock.withLock({ status }) else { return .exit }
        return raw & 0x7F == 0 ? .exit : .uncaughtSignal
    }

    /// Sends SIGTERM.
    public func terminate() { signal(SIGTERM) }

    /// Sends SIGINT.
    public func interrupt() { signal(SIGINT) }

    private func signal(_ number: Int32) {
        let child = lock.withLock { status == nil ? pid : 0 }
        if child > 0 { kill(child, number) }
    }

    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private typealias ChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    private static let closeFrom = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        .map { unsafeBitCast($0, to: CloseFrom.self) }
    private static let changeDirectory = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np")
        .map { unsafeBitCast($0, to: ChangeDirectory.self) }

    private static func descriptor(of stream: Any?, reading: Bool) -> Int32? {
        if let pipe = stream as? Pipe {
            return reading ? pipe.fileHandleForReading.fileDescriptor : pipe.fileHandleForWriting.fileDescriptor
        }
        return (stream as? FileHandle)?.fileDescriptor
    }
}
