import Foundation
import Tapedeck
import TapedeckCurl

/// An app's network layer: a data, an upload and a download service over one transport, with the running tasks of
/// each kind tracked and cancellable by kind.
///
/// The transport is the seam: the live `CurlTransport` in the app, a cassette or a stub server in tests.
///
/// ```swift
/// let network = try NetworkManager(config: NetworkConfig(baseURL: URL(string: "https://api.example.com/")!))
/// let profile = try await network.data.get("me")
/// network.cancelTasks(of: .download)
/// ```
public final class NetworkManager: Sendable {
    /// The kinds of service.
    public enum ServiceKind: Sendable, Hashable, CaseIterable {
        /// ``DataService``.
        case data
        /// ``UploadService``.
        case upload
        /// ``DownloadService``.
        case download
    }

    /// The configuration the services were made with.
    public let config: NetworkConfig
    /// JSON API calls.
    public let data: DataService
    /// Uploads.
    public let upload: UploadService
    /// Downloads.
    public let download: DownloadService

    /// Watches the network; while it reports not reachable, every service fails fast with
    /// `URLError.notConnectedToInternet` (-1009) without touching the transport.
    public let reachability: NetworkReachabilityManager?

    /// Creates the services over `transport` (the live libcurl transport by default), every request authenticated
    /// at the configuration's ``SecurityLevel``.
    ///
    /// - Parameters:
    ///   - config: the base URLs, security level and timeouts of the three services.
    ///   - transport: what sends the requests: `CurlTransport()`, a cassette, or a stub server's transport.
    ///   - reachability: a monitor (started here if it is not yet monitoring), e.g. `.shared`, or one with a
    ///     `.simulated` source in tests; `nil` never fails fast.
    /// - Throws: `SecurityPolicyError` when the security level cannot protect the base URLs (pinning with no
    ///   certificates, or a base URL that is not `https`), at configuration time rather than as a silent pass.
    public init(
        config: NetworkConfig, transport: any HTTPTransport = CurlTransport(),
        reachability: NetworkReachabilityManager? = nil
    ) throws(SecurityPolicyError) {
        self.config = config
        self.reachability = reachability
        if let reachability, !reachability.isMonitoring { reachability.startMonitoring() }
        let policy = try config.securityPolicy()
        data = try DataService(config: config, transport: transport, policy: policy, reachability: reachability)
        upload = try UploadService(config: config, transport: transport, policy: policy, reachability: reachability)
        download = try DownloadService(config: config, transport: transport, policy: policy, reachability: reachability)
    }

    /// The tasks of `kind` still running (or created and not finished).
    public func runningTasks(of kind: ServiceKind) -> [SessionTask] {
        session(of: kind).tasks
    }

    /// Cancels every running task of `kind`; each completes with `URLError.cancelled`.
    public func cancelTasks(of kind: ServiceKind) {
        for task in session(of: kind).tasks { task.cancel() }
    }

    /// Cancels every running task of every kind.
    public func cancelAllTasks() {
        for kind in ServiceKind.allCases { cancelTasks(of: kind) }
    }

    private func session(of kind: ServiceKind) -> SessionManager {
        switch kind {
        case .data: return data.api.session
        case .upload: return upload.api.session
        case .download: return download.api.session
        }
    }
}
