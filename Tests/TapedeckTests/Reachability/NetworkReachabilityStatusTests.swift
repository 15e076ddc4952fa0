import Foundation
import Testing
@testable import Tapedeck

@Suite struct NetworkReachabilityStatusTests {
    @Test func statusesMatchAFNetworkingsValuesAndStrings() {
        #expect(NetworkReachabilityManager.Status.allCases.map(\.rawValue) == [-1, 0, 1, 2])
        #expect(NetworkReachabilityManager.Status.allCases.map(\.localizedDescription)
                == ["Unknown", "Not Reachable", "Reachable via WWAN", "Reachable via WiFi"])
        #expect(NetworkReachabilityManager.Status.allCases.map(\.isReachable) == [false, false, true, true])
        #expect(NetworkReachabilityManager.Status.reachableViaWWAN.isReachableViaWWAN)
        #expect(!NetworkReachabilityManager.Status.reachableViaWWAN.isReachableViaWiFi)
        #expect(NetworkReachabilityManager.Status.reachableViaWiFi.isReachableViaWiFi)
        #expect("\(NetworkReachabilityManager.Status.notReachable)" == "Not Reachable")
    }

    @Test(arguments: ["api.example.com", "localhost", "example.com.", "_srv.example.org", "xn--bcher-kva.example"])
    func domainNamesAreAccepted(name: String) throws {
        let target = try NetworkReachabilityManager.Target.domain(name)
        #expect(target.description == (name.hasSuffix(".") ? String(name.dropLast()) : name))
    }

    @Test(arguments: [
        ("", "it is empty"),
        ("https://example.com", "not a URL"),
        ("exa mple.com", "contains \" \""),
        ("a..b", "empty label"),
        ("-a.com", "starts or ends with a hyphen"),
        (String(repeating: "a", count: 64) + ".com", "longer than 63"),
        (Array(repeating: "abcdefghi", count: 26).joined(separator: "."), "longer than 253"),
        ("bücher.example", "IDNA"),
    ])
    func badDomainNamesAreClearErrors(name: String, reason: String) {
        do {
            _ = try NetworkReachabilityManager.forDomain(name, source: .simulated(SimulatedNetwork()))
            Issue.record("\(name) was accepted")
        } catch {
            guard case .invalidDomain(name, _) = error else { Issue.record("wrong error \(error)"); return }
            #expect(error.localizedDescription.contains(reason), "\(error.localizedDescription)")
            #expect((error as NSError).domain == NetworkReachabilityError.errorDomain && (error as NSError).code == 1)
        }
    }

    @Test func addressesAreParsedAndBadOnesRejected() throws {
        #expect(try NetworkReachabilityManager.Target.address("10.200.0.1").description == "10.200.0.1")
        #expect(try NetworkReachabilityManager.Target.address("[2001:DB8::1]").description == "2001:db8::1")
        #expect(try NetworkReachabilityManager.Target.address("::1") == .address("0:0::1"))
        for bad in ["", "10.200.0", "10.200.0.256", "example.com", "fe80::1%eth0", "1.2.3.4:80"] {
            #expect(throws: NetworkReachabilityError.self, "\(bad)") {
                _ = try NetworkReachabilityManager.forAddress(bad, source: .simulated(SimulatedNetwork()))
            }
        }
        #expect(IPAddress("127.0.0.1")!.isLoopback && IPAddress("::1")!.isLoopback && !IPAddress("10.0.0.1")!.isLoopback)
    }
}
