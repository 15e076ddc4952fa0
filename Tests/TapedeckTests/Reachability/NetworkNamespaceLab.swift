import Foundation
#if canImport(Glibc)
import Glibc
import TapedeckTestSupport
#endif

/// Two private network namespaces joined by a veth pair, built with `ip` (iproute2) and torn down on
/// ``destroy()``: `client` (10.200.0.2/24 on `veth-client`, default route via 10.200.0.1) and `router`
/// (10.200.0.1/24 on `veth-router`). The addresses never leave the pair; nothing touches the host's namespace.
struct NetworkNamespaceLab {
    let client: String
    let router: String
    let ip: String

    /// Why namespaces cannot be built here, or `nil` when they can (as far as can be told without trying).
    static func unavailableReason() -> String? {
        #if canImport(Glibc)
        guard geteuid() == 0 else { return "not root: creating network namespaces needs CAP_SYS_ADMIN" }
        #endif
        guard ipCommand() != nil else { return "the ip command (iproute2) is not installed" }
        return nil
    }

    static func ipCommand() -> String? {
        ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Builds the namespaces; throws ``SetupError`` (the `ip` command and its output) when the system refuses.
    static func create() throws -> NetworkNamespaceLab {
        guard let ip = ipCommand() else { throw SetupError(command: "ip", output: "not installed") }
        let suffix = "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let lab = NetworkNamespaceLab(client: "tapedeck-reach-c-\(suffix)", router: "tapedeck-reach-r-\(suffix)", ip: ip)
        do {
            try lab.run("netns", "add", lab.client)
            try lab.run("netns", "add", lab.router)
            try lab.run("link", "add", "veth-client", "netns", lab.client, "type", "veth",
                        "peer", "name", "veth-router", "netns", lab.router)
            try lab.run("-n", lab.client, "address", "add", "10.200.0.2/24", "dev", "veth-client")
            try lab.run("-n", lab.router, "address", "add", "10.200.0.1/24", "dev", "veth-router")
            try lab.run("-n", lab.client, "link", "set", "lo", "up")
            try lab.run("-n", lab.client, "link", "set", "veth-client", "up")
            try lab.run("-n", lab.router, "link", "set", "veth-router", "up")
            try lab.run("-n", lab.client, "route", "add", "default", "via", "10.200.0.1", "dev", "veth-client")
        } catch {
            lab.destroy()
            throw error
        }
        return lab
    }

    /// Deletes both namespaces (and with them the veth pair); safe to call twice.
    func destroy() {
        for namespace in [client, router] { try? run("netns", "delete", namespace) }
    }

    struct SetupError: Error, CustomStringConvertible {
        var command: String
        var output: String
        var description: String { "`\(command)` failed: \(output)" }
    }

    /// Runs `ip ARGUMENTS…` and waits (bounded: `ip` talks to the kernel only).
    func run(_ arguments: String...) throws {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: ip)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw SetupError(command: ([ip] + arguments).joined(separator: " "),
                             output: text.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }
}
