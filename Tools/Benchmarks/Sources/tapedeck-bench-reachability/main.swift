import Foundation
import Glibc
import Synchronization
import Tapedeck

// Helper for Tools/bench/reachability.sh.
//
//   tapedeck-bench-reachability simulated COUNT     COUNT SimulatedNetwork transitions: time to the handler and
//                                                   until transition(to:) returns; RSS before/after
//   tapedeck-bench-reachability netlink COUNT IFACE GATEWAY
//                                                   (inside a private namespace) COUNT times delete and re-add the
//                                                   default route via IFACE/GATEWAY over rtnetlink and time each
//                                                   until the system-source manager reports the change; then the
//                                                   CPU time and monitor-thread wake-ups over 2 s of idleness
//
// Each prints `key=value` lines.

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("tapedeck-bench-reachability: \(message)\n".utf8))
    exit(1)
}

/// CLOCK_MONOTONIC in nanoseconds.
func now() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Resident set size in KiB (/proc/self/statm).
func rssKiB() -> Int {
    let text = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
    let pages = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
}

func threadCount() -> Int {
    let text = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    return text.split(separator: "\n").first { $0.hasPrefix("Threads:") }
        .flatMap { Int($0.split(separator: "\t").last ?? "") } ?? 0
}

func cpuMicroseconds() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1_000_000 + usage.ru_utime.tv_usec + usage.ru_stime.tv_usec
}

/// Voluntary context switches of the thread named `tapedeck.reachab` (the kernel truncates names to 15 bytes).
func monitorThreadWakeups() -> Int? {
    guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task") else { return nil }
    for task in tasks {
        let name = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? ""
        guard name.hasPrefix("tapedeck.reach") else { continue }
        let status = (try? String(contentsOfFile: "/proc/self/task/\(task)/status", encoding: .utf8)) ?? ""
        return status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") }
            .flatMap { Int($0.split(separator: "\t").last ?? "") }
    }
    return nil
}

func summary(_ name: String, _ nanoseconds: [UInt64]) {
    let sorted = nanoseconds.sorted()
    func micro(_ value: UInt64) -> String { String(format: "%.1f", Double(value) / 1000) }
    let p99 = sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
    print("\(name)_median_us=\(micro(sorted[sorted.count / 2])) \(name)_p99_us=\(micro(p99)) "
          + "\(name)_max_us=\(micro(sorted.last!)) \(name)_n=\(sorted.count)")
}

/// The time the last handler call ran, written by the delivery queue.
final class Stamp: Sendable {
    let value = Mutex<(UInt64, NetworkReachabilityManager.Status)>((0, .unknown))
}

func simulated(count: Int) async {
    let rssBefore = rssKiB()
    let network = SimulatedNetwork(status: .reachableViaWiFi)
    let manager = NetworkReachabilityManager(source: .simulated(network))
    let stamp = Stamp()
    manager.setReachabilityStatusChangeHandler { status in stamp.value.withLock { $0 = (now(), status) } }
    manager.startMonitoring()
    await network.settle()
    var toHandler: [UInt64] = []
    var toReturn: [UInt64] = []
    for index in 0..<count {
        let target: NetworkReachabilityManager.Status = index % 2 == 0 ? .notReachable : .reachableViaWiFi
        let start = now()
        await network.transition(to: target)
        let end = now()
        let (handled, status) = stamp.value.withLock { $0 }
        guard status == target else { fail("handler saw \(status), expected \(target)") }
        toHandler.append(handled - start)
        toReturn.append(end - start)
    }
    summary("simulated_to_handler", toHandler)
    summary("simulated_transition_returns", toReturn)
    print("simulated_rss_before_kib=\(rssBefore) simulated_rss_after_kib=\(rssKiB()) threads=\(threadCount())")
    manager.stopMonitoring()
}

// MARK: netlink

/// Sends one rtnetlink request that changes the default route and waits for the kernel's acknowledgement.
func changeDefaultRoute(add: Bool, interface: Int32, gateway: [UInt8], socket fd: Int32, sequence: UInt32) {
    func attribute(_ type: UInt16, _ value: [UInt8]) -> [UInt8] {
        withUnsafeBytes(of: UInt16(4 + value.count)) { Array($0) } + withUnsafeBytes(of: type) { Array($0) } + value
    }
    // struct rtmsg: AF_INET, dst_len 0, src_len 0, tos 0, RT_TABLE_MAIN, RTPROT_STATIC, RT_SCOPE_UNIVERSE, RTN_UNICAST
    // (a deletion leaves the protocol unspecified, so it matches a route `ip route add` made with RTPROT_BOOT)
    var body: [UInt8] = [2, 0, 0, 0, 254, add ? 4 : 0, 0, 1, 0, 0, 0, 0]
    body += attribute(5, gateway)  // RTA_GATEWAY
    body += attribute(4, withUnsafeBytes(of: interface) { Array($0) })  // RTA_OIF
    // RTM_NEWROUTE with NLM_F_REQUEST|NLM_F_ACK|NLM_F_CREATE|NLM_F_EXCL, or RTM_DELROUTE with NLM_F_REQUEST|NLM_F_ACK
    let type: UInt16 = add ? 24 : 25
    let flags: UInt16 = add ? 0x1 | 0x4 | 0x400 | 0x200 : 0x1 | 0x4
    var message = withUnsafeBytes(of: UInt32(16 + body.count)) { Array($0) }
    message += withUnsafeBytes(of: type) { Array($0) } + withUnsafeBytes(of: flags) { Array($0) }
    message += withUnsafeBytes(of: sequence) { Array($0) } + [0, 0, 0, 0] + body
    guard send(fd, message, message.count, 0) == message.count else { fail("send: errno \(errno)") }
    var reply = [UInt8](repeating: 0, count: 4096)
    let count = recv(fd, &reply, reply.count, 0)
    guard count >= 20 else { fail("no acknowledgement: errno \(errno)") }
    let code = reply.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 16, as: Int32.self) }
    guard code == 0 else { fail("route \(add ? "add" : "delete") failed: errno \(-code)") }
}

func netlink(count: Int, interfaceName: String, gateway: String) async {
    let interface = Int32(if_nametoindex(interfaceName))
    guard interface > 0 else { fail("no interface \(interfaceName)") }
    var gatewayBytes = [UInt8](repeating: 0, count: 4)
    guard inet_pton(AF_INET, gateway, &gatewayBytes) == 1 else { fail("bad gateway \(gateway)") }
    let fd = socket(16, Int32(SOCK_RAW.rawValue), 0)  // AF_NETLINK, NETLINK_ROUTE (unbound: the kernel assigns a port)
    guard fd >= 0 else { fail("socket: errno \(errno)") }

    let rssBefore = rssKiB()
    let threadsBefore = threadCount()
    let manager = NetworkReachabilityManager()
    // The handler stamps each status as it runs on the delivery queue.
    let (handled, handler) = AsyncStream.makeStream(of: (UInt64, NetworkReachabilityManager.Status).self)
    manager.setReachabilityStatusChangeHandler { status in handler.yield((now(), status)) }
    manager.startMonitoring()
    var deliveries = handled.makeAsyncIterator()
    func awaitStatus(_ status: NetworkReachabilityManager.Status) async -> UInt64 {
        guard let (time, seen) = await deliveries.next() else { fail("the delivery stream ended") }
        guard seen == status else { fail("the handler reported \(seen), expected \(status)") }
        return time
    }
    _ = await awaitStatus(.reachableViaWiFi)
    print("monitor_rss_delta_kib=\(rssKiB() - rssBefore) monitor_threads_added=\(threadCount() - threadsBefore)")

    var down: [UInt64] = []
    var up: [UInt64] = []
    for index in 0..<count {
        var start = now()
        changeDefaultRoute(add: false, interface: interface, gateway: gatewayBytes, socket: fd, sequence: UInt32(2 * index + 1))
        down.append(await awaitStatus(.notReachable) - start)
        start = now()
        changeDefaultRoute(add: true, interface: interface, gateway: gatewayBytes, socket: fd, sequence: UInt32(2 * index + 2))
        up.append(await awaitStatus(.reachableViaWiFi) - start)
    }
    summary("netlink_route_delete_to_handler", down)
    summary("netlink_route_add_to_handler", up)
    print("monitor_rss_after_\(2 * count)_changes_delta_kib=\(rssKiB() - rssBefore)")

    let wakeupsBefore = monitorThreadWakeups() ?? -1
    let cpuBefore = cpuMicroseconds()
    try? await Task.sleep(for: .seconds(2))
    print("idle_2s_process_cpu_us=\(cpuMicroseconds() - cpuBefore) "
          + "idle_2s_monitor_thread_wakeups=\((monitorThreadWakeups() ?? -1) - wakeupsBefore)")
    manager.stopMonitoring()
    close(fd)
}

let arguments = CommandLine.arguments
switch arguments.dropFirst().first {
case "simulated":
    await simulated(count: arguments.count > 2 ? Int(arguments[2]) ?? 1000 : 1000)
case "netlink" where arguments.count == 5:
    await netlink(count: Int(arguments[2]) ?? 200, interfaceName: arguments[3], gateway: arguments[4])
default:
    fail("usage: tapedeck-bench-reachability simulated [COUNT] | netlink COUNT INTERFACE GATEWAY")
}
