import Foundation

extension NetworkReachabilityManager {
    /// How a target can be reached, as AFNetworking's `AFNetworkReachabilityStatus` names it.
    ///
    /// Wired Ethernet (and any other non-cellular route, such as a VPN tunnel or a virtual Ethernet pair) is reported
    /// as ``reachableViaWiFi``, as AFNetworking does on a Mac: the statuses tell cellular from everything else.
    ///
    /// ```swift
    /// if manager.networkReachabilityStatus.isReachableViaWWAN { useLowResolutionImages() }
    /// ```
    public enum Status: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// Monitoring has not produced a value yet (or is not running).
        case unknown = -1
        /// No usable route leads to the target.
        case notReachable = 0
        /// The route to the target goes out through a cellular (WWAN) interface.
        case reachableViaWWAN = 1
        /// The route to the target goes out through Wi-Fi, wired Ethernet or another non-cellular interface.
        case reachableViaWiFi = 2

        /// Whether the target is reachable by any interface.
        public var isReachable: Bool { isReachableViaWWAN || isReachableViaWiFi }
        /// Whether the target is reachable through a cellular interface.
        public var isReachableViaWWAN: Bool { self == .reachableViaWWAN }
        /// Whether the target is reachable through Wi-Fi, wired Ethernet or another non-cellular interface.
        public var isReachableViaWiFi: Bool { self == .reachableViaWiFi }

        /// A short English description, AFNetworking's `AFStringFromNetworkReachabilityStatus`:
        /// "Unknown", "Not Reachable", "Reachable via WWAN", "Reachable via WiFi".
        public var localizedDescription: String {
            switch self {
            case .unknown: "Unknown"
            case .notReachable: "Not Reachable"
            case .reachableViaWWAN: "Reachable via WWAN"
            case .reachableViaWiFi: "Reachable via WiFi"
            }
        }

        /// The same as ``localizedDescription``.
        public var description: String { localizedDescription }
    }
}
