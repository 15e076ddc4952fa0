/// What kind of network an interface connects to, as far as reachability statuses care.
enum InterfaceKind: Sendable, Hashable {
    case loopback
    /// 802.11 wireless.
    case wifi
    /// A cellular modem (WWAN).
    case wwan
    /// Wired Ethernet, or a virtual Ethernet device (veth, bridge, bond, VLAN…).
    case wired
    /// Anything else: tunnels, PPP, …
    case other

    /// The status a usable route through this kind of interface means: cellular is WWAN, everything else is
    /// reported as Wi-Fi (AFNetworking reports wired Ethernet on a Mac the same way).
    var reachableStatus: NetworkReachabilityManager.Status {
        self == .wwan ? .reachableViaWWAN : .reachableViaWiFi
    }
}

/// The facts about an interface that decide its kind, read from `/sys/class/net/NAME` and RTM_NEWLINK.
struct InterfaceFacts: Sendable, Hashable {
    var name: String
    /// ARPHRD_* from the link message (or `/sys/class/net/NAME/type`).
    var arpType: UInt16?
    /// `DEVTYPE=` of `/sys/class/net/NAME/uevent` (`wlan`, `wwan`, `bridge`, …).
    var deviceType: String?
    /// `/sys/class/net/NAME/wireless` or `/sys/class/net/NAME/phy80211` exists.
    var hasWirelessExtensions: Bool = false
    /// The name of `/sys/class/net/NAME/device/driver`'s target (`qmi_wwan`, `iwlwifi`, …).
    var driver: String?

    /// Drivers of USB and PCIe cellular modems whose network interfaces do not announce `DEVTYPE=wwan`.
    static let cellularDrivers: Set<String> = [
        "qmi_wwan", "cdc_mbim", "huawei_cdc_ncm", "sierra_net", "option", "hso", "rmnet", "rmnet_ipa", "ipa",
        "mhi_net", "mhi_wwan_mbim", "iosm", "t7xx",
    ]
    /// Name prefixes cellular interfaces get from their drivers or from udev's predictable names.
    static let cellularNamePrefixes = ["wwan", "wwp", "rmnet", "ccmni", "mhi_hwip"]

    /// The kind these facts describe.
    var kind: InterfaceKind {
        if arpType == Netlink.arpLoopback || name == "lo" { return .loopback }
        if hasWirelessExtensions || deviceType == "wlan" || arpType == Netlink.arpIEEE80211
            || arpType == Netlink.arpIEEE80211Radiotap {
            return .wifi
        }
        if deviceType == "wwan" || arpType == Netlink.arpRawIP || driver.map(Self.cellularDrivers.contains) == true
            || Self.cellularNamePrefixes.contains(where: name.hasPrefix) {
            return .wwan
        }
        if arpType == Netlink.arpEther { return .wired }
        return .other
    }
}

#if canImport(Glibc)
import Glibc

/// Reads ``InterfaceFacts`` from sysfs. In another network namespace's process, sysfs shows that namespace's
/// interfaces only when it was mounted there (as `ip netns exec` does); a missing directory leaves the facts
/// to the link message.
struct SysfsInterfaceReader: Sendable {
    var root = "/sys/class/net"

    func facts(name: String, arpType: UInt16?) -> InterfaceFacts {
        let directory = "\(root)/\(name)"
        var facts = InterfaceFacts(name: name, arpType: arpType)
        if facts.arpType == nil, let text = read("\(directory)/type"), let value = UInt16(text) {
            facts.arpType = value
        }
        if let uevent = read("\(directory)/uevent") {
            for line in uevent.split(separator: "\n") where line.hasPrefix("DEVTYPE=") {
                facts.deviceType = String(line.dropFirst("DEVTYPE=".count))
            }
        }
        facts.hasWirelessExtensions = exists("\(directory)/wireless") || exists("\(directory)/phy80211")
        if let target = linkTarget("\(directory)/device/driver") {
            facts.driver = target.split(separator: "/").last.map(String.init)
        }
        return facts
    }

    private func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    private func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = Glibc.read(fd, &buffer, buffer.count)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self).trimmingTrailingNewlines()
    }

    private func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

private extension String {
    func trimmingTrailingNewlines() -> String {
        var text = Substring(self)
        while text.last == "\n" || text.last == " " { text = text.dropLast() }
        return String(text)
    }
}
#endif
