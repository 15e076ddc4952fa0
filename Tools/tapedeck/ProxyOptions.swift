import ArgumentParser
import Foundation
import TapedeckCassette
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer
#if canImport(Glibc)
import Glibc
#endif

/// The options `tapedeck record --proxy` and `tapedeck serve --proxy` share: the forward proxy's CA file, which
/// hosts it covers, and how it reaches them.
struct ProxyOptions: ParsableArguments {
    @Flag(name: .long, help: "Run a forward proxy (HTTP_PROXY / HTTPS_PROXY) that intercepts HTTPS with a CA made for this run.")
    var proxy = false

    @Option(name: .customLong("ca-out"), help: "With --proxy, where to write the proxy's CA certificate, PEM (default: a file in the temporary folder).")
    var caOut: String?

    @Option(name: .customLong("allow-host"), help: "With --proxy, a host the cassette covers (repeatable; *.example.com for subdomains; default: every host, or TAPEDECK_ALLOWED_HOSTS).")
    var allowHost: [String] = []

    @Flag(name: .long, help: "With --proxy, forward requests to hosts outside --allow-host unrecorded instead of refusing them.")
    var passthrough = false

    @Flag(name: .customLong("listen-anywhere"), help: "With --proxy, allow listening on an address other than loopback.")
    var listenAnywhere = false

    @Option(name: .customLong("connect-to"), help: "With --proxy, HOST:PORT:CONNECT-HOST:CONNECT-PORT: reach a host at another address, keeping its name (repeatable).")
    var connectTo: [String] = []

    @Option(name: .customLong("upstream-ca"), help: "With --proxy, a PEM file of CA certificates the proxy trusts when it reaches hosts (repeatable).")
    var upstreamCA: [String] = []

    /// The options given without `--proxy`, by name, for the error that says they need it.
    var givenWithoutProxy: [String] {
        guard !proxy else { return [] }
        var names: [String] = []
        if caOut != nil { names.append("--ca-out") }
        if !allowHost.isEmpty { names.append("--allow-host") }
        if passthrough { names.append("--passthrough") }
        if listenAnywhere { names.append("--listen-anywhere") }
        if !connectTo.isEmpty { names.append("--connect-to") }
        if !upstreamCA.isEmpty { names.append("--upstream-ca") }
        return names
    }

    /// The proxy's configuration for listening on `host:port`.
    func configuration(host: String, port: UInt16, cassette: CassetteConfiguration) throws -> ForwardProxy.Configuration {
        for route in connectTo where route.split(separator: ":", omittingEmptySubsequences: false).count != 4 {
            throw CLIError("--connect-to \(route): expected HOST:PORT:CONNECT-HOST:CONNECT-PORT, e.g. api.example.com:443:127.0.0.1:8443")
        }
        var anchors: [TLSSettings.Certificate] = []
        for file in upstreamCA {
            do { anchors.append(.pem(try Data(contentsOf: URL(fileURLWithPath: file)))) } catch {
                throw CLIError("--upstream-ca \(file): could not read it: \(error.localizedDescription)")
            }
        }
        var configuration = ForwardProxy.Configuration(
            host: host, port: port, allowsNonLoopbackListener: listenAnywhere,
            allowedHosts: allowHost.isEmpty ? nil : Set(allowHost), passthrough: passthrough,
            upstream: CurlTransport.Configuration(connectTo: connectTo, trustedCertificates: anchors))
        configuration.cassette = cassette
        return configuration
    }

    /// Starts the proxy, writes its CA certificate, and prints how to point a client at it.
    func start(cassette: String, mode: ForwardProxy.Mode, host: String, port: UInt16,
               configuration cassetteConfiguration: CassetteConfiguration = CassetteConfiguration()) throws -> ForwardProxy {
        let proxy: ForwardProxy
        do {
            proxy = try ForwardProxy(cassette: URL(fileURLWithPath: cassette), mode: mode, configuration: configuration(host: host, port: port, cassette: cassetteConfiguration))
        } catch let error as CLIError { throw error } catch { throw CLIError("\(error)") }
        let caPath = caOut ?? FileManager.default.temporaryDirectory.appendingPathComponent("tapedeck-proxy-\(getpid())-ca.pem").path
        // As `serve --ca-file`: a symbolic link or a device is written through, a folder refused in words.
        do { try OutputFile.write(Data(proxy.certificateAuthorityPEM.utf8), to: caPath, what: "the CA certificate") } catch {
            proxy.stop()
            throw error
        }
        let verb = mode == .replay ? "Replaying \(cassette)" : "Recording into \(cassette)"
        let hosts = allowHost.isEmpty ? "every host" : allowHost.joined(separator: ", ")
        Console.out("\(verb) through the forward proxy \(proxy.proxyURL.absoluteString) (hosts: \(hosts)"
                    + (passthrough ? "; others pass through unrecorded)" : ")"))
        Console.out("CA certificate (PEM): \(caPath)")
        Console.out("Point a client at the proxy:")
        for variable in proxy.environment(certificateAuthorityFile: caPath) {
            Console.out("  export \(variable.name)=\(variable.value)")
        }
        Console.out("  e.g. curl -x \(proxy.proxyURL.absoluteString) --cacert \(caPath) https://\(allowHost.first.map { $0.hasPrefix("*.") ? "www" + $0.dropFirst() : $0 } ?? "api.example.com")/")
        return proxy
    }
}
