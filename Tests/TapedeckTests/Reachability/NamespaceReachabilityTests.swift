import Foundation
import Testing
import Tapedeck
import TapedeckTestSupport
import TapedeckCore

/// The system source against a real kernel: a child copy of this test binary runs inside a private network
/// namespace and reports statuses on stdout while this process takes links and routes down and up.
@Suite(.serialized) struct NamespaceReachabilityTests {
    static let testName = "linkAndRouteChangesInANamespaceChangeTheStatuses"
    static let marker = "TAPEDECK_REACHABILITY_NETNS_CHILD"
    /// How long each step may take to show in the child's reports. Generous, because the first step includes the
    /// child's start (a copy of the whole test binary), which a loaded two-core machine or a sanitizer slows to
    /// tens of seconds; a passing run never waits it out.
    static let bound: Duration = .seconds(120)

    @Test func linkAndRouteChangesInANamespaceChangeTheStatuses() async throws {
        if ProcessInfo.processInfo.environment[Self.marker] == "1" {
            try await Self.reportStatusesUntilStdinCloses()
            return
        }
        if let reason = NetworkNamespaceLab.unavailableReason() { try skip(reason) }
        let lab: NetworkNamespaceLab
        do { lab = try NetworkNamespaceLab.create() } catch { try skip("cannot build a network namespace: \(error)") }
        defer { lab.destroy() }

        let child = ChildProcess()
        child.executableURL = URL(fileURLWithPath: lab.ip)
        child.arguments = ["netns", "exec", lab.client, CommandLine.arguments[0],
                           "--testing-library", "swift-testing", "--filter", Self.testName]
        child.environment = ProcessInfo.processInfo.environment.merging([Self.marker: "1"]) { _, new in new }
        let input = Pipe()
        let output = Pipe()
        child.standardInput = input
        child.standardOutput = output
        child.standardError = output
        try child.run()
        let lines = LineCollector(reading: output.fileHandleForReading)
        defer {
            try? input.fileHandleForWriting.close()
            if child.isRunning { child.terminate() }
            child.waitUntilExit()
        }

        var seen = ["shared": [String](), "address": [String]()]
        /// Reads the child's reports until both managers show the expected statuses.
        func waitFor(shared: String, address: String, after step: String) async {
            while seen["shared"]?.last != shared || seen["address"]?.last != address {
                guard let line = await lines.nextLine(within: Self.bound) else {
                    let said = lines.transcript.joined(separator: "\n")
                    Issue.record("after \(step): expected shared \(shared), address \(address) within \(Self.bound); child said:\n\(said)")
                    return
                }
                let words = line.split(separator: " ", maxSplits: 2).map(String.init)
                guard words.count == 3, words[0] == "REACH", seen[words[1]] != nil else { continue }
                if seen[words[1]]?.last != words[2] { seen[words[1]]?.append(words[2]) }
            }
        }

        let wifi = NetworkReachabilityManager.Status.reachableViaWiFi.description
        let none = NetworkReachabilityManager.Status.notReachable.description
        await waitFor(shared: wifi, address: wifi, after: "start")  // a veth is wired Ethernet: reported as WiFi
        try lab.run("-n", lab.router, "link", "set", "veth-router", "down")  // the client's link loses carrier
        await waitFor(shared: none, address: none, after: "the peer went down")
        try lab.run("-n", lab.router, "link", "set", "veth-router", "up")
        await waitFor(shared: wifi, address: wifi, after: "the peer came back")
        try lab.run("-n", lab.client, "route", "delete", "default")  // the gateway stays reachable on the link
        await waitFor(shared: none, address: wifi, after: "the default route was deleted")
        try lab.run("-n", lab.client, "link", "set", "veth-client", "down")  // the kernel drops its routes silently
        await waitFor(shared: none, address: none, after: "the client's link was taken down")
        try lab.run("-n", lab.client, "link", "set", "veth-client", "up")
        try lab.run("-n", lab.client, "route", "add", "default", "via", "10.200.0.1", "dev", "veth-client")
        await waitFor(shared: wifi, address: wifi, after: "the link and default route were restored")

        #expect(seen["shared"] == [wifi, none, wifi, none, wifi])
        #expect(seen["address"] == [wifi, none, wifi, none, wifi])
        try input.fileHandleForWriting.close()
        child.waitUntilExit()
        let transcript = lines.transcript.joined(separator: "\n")
        #expect(child.terminationStatus == 0, "child failed:\n\(transcript)")
        #expect(transcript.contains("Test \(Self.testName)") && transcript.contains("passed"), "\(transcript)")
    }

    private func skip(_ reason: String) throws -> Never {
        print("\(Self.testName) skipped: \(reason)")
        try Test.cancel(Comment(rawValue: reason))
    }

    /// In the child: monitor the internet and the router's address, print each status, stop when stdin closes.
    private static func reportStatusesUntilStdinCloses() async throws {
        let shared = NetworkReachabilityManager()
        let address = try NetworkReachabilityManager.forAddress("10.200.0.1")
        for (name, manager) in [("shared", shared), ("address", address)] {
            manager.setReachabilityStatusChangeHandler { status in
                FileHandle.standardOutput.write(Data("REACH \(name) \(status)\n".utf8))
            }
            manager.startMonitoring()
            #expect(manager.monitoringError == nil)
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let once = Locked(Optional(continuation))
            let resume: @Sendable () -> Void = { once.withLock { $0.take() }?.resume() }
            DispatchQueue.global().async {
                _ = FileHandle.standardInput.readDataToEndOfFile()
                resume()
            }
            // A safety net only: stdin closes when the parent ends, however it ends. Longer than all six steps'
            // bounds, because under a sanitizer on a starved machine the child's start alone takes tens of seconds
            // (a 60-second net ended a child before the parent took its first link down, in a clean-clone TSan run).
            DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(Int(bound.components.seconds) * 7)) { resume() }
        }
        shared.stopMonitoring()
        address.stopMonitoring()
    }
}
