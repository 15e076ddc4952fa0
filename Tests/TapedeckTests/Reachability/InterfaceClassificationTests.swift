import Testing
@testable import Tapedeck

@Suite struct InterfaceClassificationTests {
    @Test(arguments: [
        (InterfaceFacts(name: "lo", arpType: 772), InterfaceKind.loopback),
        (InterfaceFacts(name: "wlp2s0", arpType: 1, deviceType: "wlan", hasWirelessExtensions: true), .wifi),
        (InterfaceFacts(name: "wlan0", arpType: 1, hasWirelessExtensions: true), .wifi),
        (InterfaceFacts(name: "mon0", arpType: 803), .wifi),
        (InterfaceFacts(name: "wwan0", arpType: 519, deviceType: "wwan"), .wwan),
        (InterfaceFacts(name: "usb0", arpType: 1, driver: "qmi_wwan"), .wwan),
        (InterfaceFacts(name: "rmnet_data0", arpType: 519), .wwan),
        (InterfaceFacts(name: "wwp0s20f0u6", arpType: 1), .wwan),
        (InterfaceFacts(name: "enp3s0", arpType: 1, driver: "r8169"), .wired),
        (InterfaceFacts(name: "veth1", arpType: 1), .wired),
        (InterfaceFacts(name: "br0", arpType: 1, deviceType: "bridge"), .wired),
        (InterfaceFacts(name: "tun0", arpType: 65534), .other),
        (InterfaceFacts(name: "ppp0", arpType: 512), .other),
    ])
    func kindsComeFromSysfsFacts(facts: InterfaceFacts, kind: InterfaceKind) {
        #expect(facts.kind == kind)
    }

    @Test func onlyCellularIsWWANAndEverythingElseIsReportedAsWiFi() {
        #expect(InterfaceKind.wwan.reachableStatus == .reachableViaWWAN)
        for kind in [InterfaceKind.wifi, .wired, .other, .loopback] {
            #expect(kind.reachableStatus == .reachableViaWiFi)
        }
    }

    @Test func theLoopbackInterfaceOfThisMachineReadsAsLoopback() {
        let facts = SysfsInterfaceReader().facts(name: "lo", arpType: nil)
        #expect(facts.arpType == 772)
        #expect(facts.kind == .loopback)
    }

    @Test func aMissingSysfsDirectoryLeavesTheLinkTypeToDecide() {
        let facts = SysfsInterfaceReader(root: "/nonexistent").facts(name: "eth9", arpType: 1)
        #expect(facts == InterfaceFacts(name: "eth9", arpType: 1))
        #expect(facts.kind == .wired)
    }
}
