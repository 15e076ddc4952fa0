import Foundation
import Testing
import TapedeckCore
@testable import TapedeckStubServer

/// The forward proxy's pure logic: reading the first request head, the host policy, and the URL a request asks for.
@Suite struct ForwardProxyLogicTests {
    private func parse(_ text: String) -> ProxyRequestHead.Parsed { ProxyRequestHead.parse(Array(text.utf8)) }

    @Test func aConnectHeadGivesItsHostPortAndExactLength() {
        let head = "CONNECT API.Example.com:443 HTTP/1.1\r\nHost: api.example.com:443\r\n\r\n"
        #expect(parse(head + "\u{16}\u{03}\u{01}") == .complete(
            ProxyRequestHead(method: "CONNECT", target: .connect(host: "api.example.com", port: 443)), length: head.utf8.count))
        #expect(parse("CONNECT [::1]:8443 HTTP/1.1\r\n\r\n")
                == .complete(ProxyRequestHead(method: "CONNECT", target: .connect(host: "::1", port: 8443)), length: 31))
    }

    @Test func absoluteAndOriginFormTargetsAreTold() {
        #expect(parse("GET http://a.test/x HTTP/1.1\nHost: a.test\n\n")
                == .complete(ProxyRequestHead(method: "GET", target: .absolute), length: 43))
        #expect(parse("POST /x HTTP/1.1\r\n\r\nbody")
                == .complete(ProxyRequestHead(method: "POST", target: .origin), length: 20))
    }

    @Test func aPartialHeadAsksForMoreAndAMalformedOneSaysWhy() {
        #expect(parse("CONNECT a.test:443 HTTP/1.1\r\nHost: a") == .incomplete)
        #expect(parse("") == .incomplete)
        guard case .invalid(let line) = parse("hello there\r\n\r\n") else { Issue.record("accepted a non-HTTP line"); return }
        #expect(line.contains("is not an HTTP/1.x request line"))
        for target in ["a.test", "a.test:0", "a.test:http", "[::1:443", "user@a.test:443", "a:b:443"] {
            guard case .invalid(let reason) = parse("CONNECT \(target) HTTP/1.1\r\n\r\n") else {
                Issue.record("accepted CONNECT \(target)")
                continue
            }
            #expect(reason.contains("must be HOST:PORT"))
        }
        let long = "GET /" + String(repeating: "a", count: ProxyRequestHead.maximumLength) + " HTTP/1.1\r\n"
        guard case .invalid(let reason) = parse(long) else { Issue.record("accepted an endless head"); return }
        #expect(reason.contains("longer than"))
    }

    @Test func theHostPolicyAllowsPassesThroughOrRefusesWithInstructions() {
        let open = ProxyHostPolicy(allowedHosts: nil, passthrough: false, environment: [:])
        #expect(open.decision(forHost: "anything.test") == .cassette)
        let listed = ProxyHostPolicy(allowedHosts: ["API.example.com", "*.cdn.test", "::1"], passthrough: false, environment: [:])
        #expect(listed.decision(forHost: "api.example.com") == .cassette)
        #expect(listed.decision(forHost: "img.cdn.test") == .cassette)
        #expect(listed.decision(forHost: "[::1]") == .cassette)
        guard case .refused(let message) = listed.decision(forHost: "Evil.test") else { Issue.record("not refused"); return }
        #expect(message.contains("refused a request to evil.test"))
        #expect(message.contains("(*.cdn.test, ::1, api.example.com)"))
        #expect(message.contains("--allow-host evil.test") && message.contains("--passthrough") && message.contains("TAPEDECK_ALLOWED_HOSTS"))
        let passing = ProxyHostPolicy(allowedHosts: ["api.example.com"], passthrough: true, environment: [:])
        #expect(passing.decision(forHost: "other.test") == .passthrough)
        let fromEnvironment = ProxyHostPolicy(allowedHosts: ["api.example.com"], passthrough: false,
                                              environment: ["TAPEDECK_ALLOWED_HOSTS": "ci.example.com"])
        #expect(fromEnvironment.decision(forHost: "ci.example.com") == .cassette)
        #expect(fromEnvironment.decision(forHost: "api.example.com") != .cassette)
    }

    @Test func theURLOfARequestComesFromTheTunnelOrTheAbsoluteTarget() {
        let inTunnel = RecordedRequest(method: .get, path: "/v1/me", query: "a=1", headers: [:], body: Data())
        #expect(ForwardExchange.target(of: inTunnel, origin: "https://api.example.com") == .success("https://api.example.com/v1/me?a=1"))
        let absolute = RecordedRequest(method: .get, path: "http://a.test:8080/x", query: nil, headers: [:], body: Data())
        #expect(ForwardExchange.target(of: absolute, origin: nil) == .success("http://a.test:8080/x"))
        guard case .failure(let problem) = ForwardExchange.target(of: inTunnel, origin: nil) else { Issue.record("accepted origin form"); return }
        #expect(problem.message.contains("HTTP_PROXY"))
        let lateConnect = RecordedRequest(method: HTTPMethod("CONNECT"), path: "b.test:443", query: nil, headers: [:], body: Data())
        guard case .failure(let late) = ForwardExchange.target(of: lateConnect, origin: nil) else { Issue.record("accepted a late CONNECT"); return }
        #expect(late.message.contains("first request of a connection"))
    }

    @Test func aTunnelsOriginLeavesOutTheDefaultPortAndBracketsIPv6() {
        #expect(TunnelDaemons.origin(host: "api.example.com", port: 443) == "https://api.example.com")
        #expect(TunnelDaemons.origin(host: "api.example.com", port: 8443) == "https://api.example.com:8443")
        #expect(TunnelDaemons.origin(host: "::1", port: 443) == "https://[::1]")
        #expect(TunnelDaemons.origin(host: "plain.test", port: 80, tls: false) == "http://plain.test")
        #expect(TunnelDaemons.origin(host: "plain.test", port: 443, tls: false) == "http://plain.test:443")
    }
}
