import Foundation

/// The inputs of RFC 9111's freshness and age calculations (§4.2), computed once when a response is stored so that
/// answering a request from the cache only adds and compares numbers.
struct Freshness: Sendable {
    /// The longest heuristic freshness lifetime (§4.2.2): a day.
    static let heuristicLifetimeCap: TimeInterval = 86_400
    /// The share of the time since `Last-Modified` a heuristic lifetime takes (§4.2.2): 10%.
    static let heuristicFraction = 0.1

    /// `response_time`, seconds since 1970.
    let responseTime: TimeInterval
    /// `corrected_initial_age`, seconds (§4.2.3).
    let correctedInitialAge: TimeInterval
    /// `freshness_lifetime`, seconds (§4.2.1).
    let lifetime: TimeInterval
    /// The response's `no-cache`: never used without validation.
    let requiresValidation: Bool
    /// The response's `must-revalidate`: never used stale.
    let mustRevalidate: Bool

    init(_ response: CachedResponse, directives: CacheControl) {
        let headers = response.headers
        let responseTime = response.responseTime.timeIntervalSince1970
        let requestTime = min(response.requestTime.timeIntervalSince1970, responseTime)
        let dateValue = headers["Date"].flatMap(HTTPDate.parse)?.timeIntervalSince1970 ?? responseTime

        // §4.2.3: apparent age against the Date header, corrected for the time the request was in flight.
        let ageValue = TimeInterval(CacheControl.deltaSeconds(headers["Age"]) ?? 0)
        let apparentAge = max(0, responseTime - dateValue)
        let correctedAgeValue = ageValue + (responseTime - requestTime)
        self.responseTime = responseTime
        correctedInitialAge = max(apparentAge, correctedAgeValue)

        // §4.2.1 for a private cache: max-age, else Expires - Date, else a heuristic; s-maxage does not apply.
        if let maxAge = directives.maxAge {
            lifetime = TimeInterval(maxAge)
        } else if let expires = headers["Expires"] {
            // An Expires that is not a date (often "0" or "-1") means already expired.
            lifetime = HTTPDate.parse(expires).map { max(0, $0.timeIntervalSince1970 - dateValue) } ?? 0
        } else if CacheRules.mayUseHeuristicFreshness(statusCode: response.statusCode, directives: directives),
                  let lastModified = headers["Last-Modified"].flatMap(HTTPDate.parse)?.timeIntervalSince1970,
                  lastModified < dateValue {
            lifetime = min((dateValue - lastModified) * Freshness.heuristicFraction, Freshness.heuristicLifetimeCap)
        } else {
            lifetime = 0
        }
        requiresValidation = directives.noCache
        mustRevalidate = directives.mustRevalidate
    }

    /// `current_age` at `now`, seconds.
    @inline(__always)
    func currentAge(at now: TimeInterval) -> TimeInterval {
        correctedInitialAge + max(0, now - responseTime)
    }
}

/// How a stored response may serve a request under ``CachePolicy/useProtocolCachePolicy``.
enum FreshnessVerdict: Equatable {
    /// Use it as it is (fresh, or stale within the request's `max-stale`).
    case usable
    /// Validate it with the origin first.
    case mustValidate
}

extension Freshness {
    /// Judges a stored response of current age `age` against the request's directives (§4.2, §5.2.1).
    func verdict(age: TimeInterval, request: CacheControl?) -> FreshnessVerdict {
        if requiresValidation { return .mustValidate }
        guard let request else { return lifetime > age ? .usable : .mustValidate }
        if request.noCache { return .mustValidate }
        if let maxAge = request.maxAge, age > TimeInterval(maxAge) { return .mustValidate }
        if let minFresh = request.minFresh, lifetime - age < TimeInterval(minFresh) { return .mustValidate }
        if lifetime > age { return .usable }
        // Stale: usable only within the request's max-stale, and never under must-revalidate (§4.2.4).
        if !mustRevalidate, let maxStale = request.maxStale, maxStale == Int.max || age - lifetime <= TimeInterval(maxStale) {
            return .usable
        }
        return .mustValidate
    }
}
