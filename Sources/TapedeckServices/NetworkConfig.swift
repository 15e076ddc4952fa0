import Foundation
import Tapedeck

/// The settings of an app's network layer: one base URL per service, headers every request carries, a timeout,
/// and how strictly servers are authenticated.
///
/// ```swift
/// let config = NetworkConfig(
///     dataBaseURL: URL(string: "https://api.example.com/v1/")!,
///     uploadBaseURL: URL(string: "https://upload.example.com/")!,
///     downloadBaseURL: URL(string: "https://cdn.example.com/")!)
/// let network = try NetworkManager(config: config)
/// ```
public struct NetworkConfig: Sendable {
    /// Where ``DataService`` paths point.
    public var dataBaseURL: URL
    /// Where ``UploadService`` paths point.
    public var uploadBaseURL: URL
    /// Where ``DownloadService`` paths point.
    public var downloadBaseURL: URL
    /// Header fields added to every request (a request's own fields win).
    public var defaultHeaders: HTTPHeaders
    /// Seconds a request may stay idle before it fails with `URLError.timedOut`.
    public var timeoutInterval: TimeInterval
    /// How strictly servers are authenticated; see ``SecurityLevel``.
    public var securityLevel: SecurityLevel
    /// The certificates (DER or PEM) pinned at the `middle` and `high` levels.
    public var pinnedCertificates: [TLSSettings.Certificate]

    /// Creates a configuration.
    public init(
        dataBaseURL: URL, uploadBaseURL: URL, downloadBaseURL: URL, defaultHeaders: HTTPHeaders = [:],
        timeoutInterval: TimeInterval = 30, securityLevel: SecurityLevel = .normal,
        pinnedCertificates: [TLSSettings.Certificate] = []
    ) {
        self.dataBaseURL = dataBaseURL
        self.uploadBaseURL = uploadBaseURL
        self.downloadBaseURL = downloadBaseURL
        self.defaultHeaders = defaultHeaders
        self.timeoutInterval = timeoutInterval
        self.securityLevel = securityLevel
        self.pinnedCertificates = pinnedCertificates
    }

    /// One base URL for all three services.
    public init(
        baseURL: URL, defaultHeaders: HTTPHeaders = [:], timeoutInterval: TimeInterval = 30,
        securityLevel: SecurityLevel = .normal, pinnedCertificates: [TLSSettings.Certificate] = []
    ) {
        self.init(dataBaseURL: baseURL, uploadBaseURL: baseURL, downloadBaseURL: baseURL,
                  defaultHeaders: defaultHeaders, timeoutInterval: timeoutInterval, securityLevel: securityLevel,
                  pinnedCertificates: pinnedCertificates)
    }
}

extension NetworkConfig {
    /// A form/query serializer carrying the configuration's timeout and default headers, the base of every service's.
    func requestSerializer() -> HTTPRequestSerializer {
        var serializer = HTTPRequestSerializer()
        serializer.timeoutInterval = timeoutInterval
        for field in defaultHeaders { serializer.defaultHeaders[field.name] = field.value }
        return serializer
    }

    /// The client of one service: `baseURL` with this configuration's timeout and default headers, `policy`, and
    /// `reachability` consulted as tasks start.
    func client(
        baseURL: URL, transport: any HTTPTransport, policy: SecurityPolicy, reachability: NetworkReachabilityManager?,
        requestSerializer: any RequestSerializer
    ) throws(SecurityPolicyError) -> HTTPSessionManager {
        let api = try HTTPSessionManager(baseURL: baseURL, transport: transport, securityPolicy: policy,
                                         requestSerializer: requestSerializer)
        api.session.reachability = reachability
        return api
    }
}
