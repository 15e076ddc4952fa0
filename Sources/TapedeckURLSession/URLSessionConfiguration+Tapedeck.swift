import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TapedeckCore
import TapedeckSession

/// Configurations whose sessions send their requests to a Tapedeck transport.
extension URLSessionConfiguration {
    /// A copy of `base` whose HTTP and HTTPS requests go to `transport`: a ``TransportURLProtocol`` subclass bound
    /// to it comes first in `protocolClasses`, so plain `URLSession` code runs over a cassette, a stub server or libcurl.
    ///
    /// ```swift
    /// let recorder = try CassetteTransport(cassette: cassetteURL, mode: .once, upstream: CurlTransport())
    /// let session = URLSession(configuration: .tapedeck(transport: recorder))
    /// let (data, response) = try await session.data(from: URL(string: "https://api.example.com/users")!)
    /// ```
    ///
    /// Requests go through the session pipeline (see ``TransportURLProtocol``): redirects hop by hop with the
    /// delegate asked, cookies in `httpCookieStorage`, challenges to the delegate and `urlCredentialStorage`, and
    /// `cache` if given (FoundationNetworking's `urlCache` is not used by a custom protocol).
    /// `base.httpAdditionalHeaders` as they are now are added to requests that lack them (FoundationNetworking does
    /// not show them to a protocol), and `base.timeoutIntervalForRequest` is the idle timeout of requests whose
    /// `timeoutInterval` is left at its default of 60 s (FoundationNetworking does not apply it to the request either).
    ///
    /// The configuration carries its transport in `connectionProxyDictionary` (under `"TapedeckTransportBinding"`;
    /// FoundationNetworking copies it into every copy and every session and never reads it: keep that entry if you
    /// set the dictionary). The transport is released when the last configuration or session that carries it is,
    /// and no request in flight is cut short by that.
    public static func tapedeck(
        transport: any HTTPTransport, base: URLSessionConfiguration = .ephemeral, cache: HTTPCache? = nil
    ) -> URLSessionConfiguration {
        let configuration = base.copy() as! URLSessionConfiguration
        let binding = TransportBinding(
            transport: transport,
            additionalHeaders: (base.httpAdditionalHeaders ?? [:]).reduce(into: [:]) { headers, field in
                if let name = field.key as? String { headers[name] = "\(field.value)" }
            },
            defaultTimeout: base.timeoutIntervalForRequest,
            cache: cache,
            configuration: base
        )
        binding.install(in: configuration)
        return configuration
    }
}
