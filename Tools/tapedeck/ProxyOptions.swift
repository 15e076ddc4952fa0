import ArgumentParser
import Foundation
import TapedeckCassette
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer
#if canImport(Glibc)
import Glibc
#endif

/// `--proxy` on `tapedeck record` and `tapedeck serve`: run the forward proxy instead of a reverse proxy or a
/// server, with its settings (which need `--proxy` there).
struct ProxyOptions: ParsableArguments {
    @Flag(name: .long, help: "Run a forward proxy (HTTP_PROXY / HTTPS_PROXY) that intercepts HTTPS with a CA made for this run.")
    var proxy = false

    @Flag(name: .customLong("listen-anywhere"), help: "With --proxy, allow listening on an address other than loopback.")
    var listenAnywhere = false

    @OptionGroup var settings: ForwardProxySettings

    /// The options given without `--proxy`, by name, for the error that says they need it.
    var givenWithoutProxy: [String] {
        guard !proxy else { return [] }
        return (listenAnywhere ? ["--listen-anywhere"] : []) + settings.given
    }

    /// Starts the forward proxy on `host:port` (see ``ForwardProxySettings/start(cassette:mode:host:port:listenAnywhere:configuration:say:)``).
    func start(cassette: String, mode: ForwardProxy.Mode, host: String, port: UInt16,
               configuration: CassetteConfiguration = CassetteConfiguration()) throws -> ForwardProxy {
        try settings.start(cassette: cassette, mode: mode, host: host, port: port, listenAnywhere: listenAnywhere,
                           configuration: configuration)
    }
}

/// The forward proxy's settings that `record --proxy`, `serve --proxy` and `run` share: its CA file, which hosts it
/// covers, and how it reaches them.
struct ForwardProxySettings: ParsableArguments {
    @Option(name: .customLong("ca-out"), help: "Forward proxy: where to write its CA certificate, PEM (default: a file in the temporary folder).")
    var caOut: String?

    @Option(name: .customLong("allow-host"), help: "Forward proxy: a host the cassette covers (repeatable; *.example.com for subdomains; default: every host, or TAPEDECK_ALLOWED_HOSTS).")
    var allowHost: [String] = []

    @Flag(name: .long, help: "Forward proxy: forward requests to hosts outside --allow-host unrecorded instead of refusing them.")
    var passthrough = false

    @Option(name: .customLong("connect-to"), help: "Forward proxy: HOST:PORT:CONNECT-HOST:CONNECT-PORT: reach a host at another address, keeping its name (repeatable).")
    var connectTo: [String] = []

    @Option(name: .customLong("upstream-ca"), help: "Forward proxy: a PEM file of CA certificates it trusts when it reaches hosts (repeatable).")
    var upstreamCA: [String] = []

    /// The settings given, by name.
    var given: [String] {
        var names: [String] = []
        if caOut != nil { names.append("--ca-out") }
        if !allowHost.isEmpty { names.append("--allow-host") }
        if passthrough { names.append("--passthrough") }
        if !connectTo.isEmpty { names.append("--connect-to") }
        if !upstreamCA.isEmpty { names.append("--upstream-ca") }
        return names
    }

    /// The proxy's configuration for listening on `host:port`.
    func configuration(host: String, port: UInt16, listenAnywhere: Bool, cassette: CassetteConfiguration) throws -> ForwardProxy.Configuration {
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

    /// Where the proxy's CA certificate is written: `--ca-out`, else a file in the temporary folder.
    var caFile: String {
        caOut ?? FileManager.default.temporaryDirectory.appendingPathComponent("tapedeck-proxy-\(getpid())-ca.pem").path
    }

    /// Starts the proxy, writes its CA certificate to ``caFile``, and prints with `say` how to point a client at it.
    func start(cassette: String, mode: ForwardProxy.Mode, host: String, port: UInt16, listenAnywhere: Bool = false,
               configuration cassetteConfiguration: CassetteConfiguration = CassetteConfiguration(),
               say: (String) -> Void = Console.out) throws -> ForwardProxy {
        let proxy: ForwardProxy
        do {
            proxy = try ForwardProxy(cassette: URL(fileURLWithPath: cassette), mode: mode,
                                     configuration: configuration(host: host, port: port, listenAnywhere: listenAnywhere,
                                                                  cassette: cassetteConfiguration))
        } catch let error as CLIError { throw error } catch { throw CLIError("\(error)") }
        let caPath = caFile
        // As `serve --ca-file`: a symbolic link or a device is written through, a folder refused in words.
        do { try OutputFile.write(Data(proxy.certificateAuthorityPEM.utf8), to: caPath, what: "the CA certificate") } catch {
            proxy.stop()
            throw error
        }
        let verb = mode == .replay ? "Replaying \(cassette)" : "Recording into \(cassette)"
        let hosts = allowHost.isEmpty ? "every host" : allowHost.joined(separator: ", ")
        say("\(verb) through the forward proxy \(proxy.proxyURL.absoluteString) (hosts: \(hosts)"
            + (passthrough ? "; others pass through unrecorded)" : ")"))
        say("CA certificate (PEM): \(caPath)")
        say("Point a client at the proxy:")
        for variable in proxy.environment(certificateAuthorityFile: caPath) {
            say("  export \(variable.name)=\(variable.value)")
        }
        say("  e.g. curl -x \(proxy.proxyURL.absoluteString) --cacert \(caPath) https://\(allowHost.first.map { $0.hasPrefix("*.") ? "www" + $0.dropFirst() : $0 } ?? "api.example.com")/")
        return proxy
    }
}
