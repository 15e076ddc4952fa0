import Benchmark
import Foundation
import Synchronization
import Tapedeck

/// A store of 10,000 cookies over 1,000 sites, and the request URLs the benchmark cycles through.
///
/// Each site `siteN.com` holds 5 domain cookies (`Domain=siteN.com`), 3 host-only cookies of `www.siteN.com` on
/// `/`, `/app` and `/app/cart`, and 2 host-only cookies of `api.siteN.com`. A request to
/// `https://www.siteN.com/app/cart/items` gets 8 of them: the 3 host-only ones (longest path first), then the 5
/// domain cookies.
final class CookieBenchmarkFixture: Sendable {
    static let sites = 1_000

    let store = CookieStore()
    let requests: [URL]

    init() throws {
        for site in 0..<Self.sites {
            let domain = "site\(site).com"
            let domainCookies = (0..<5).map { "d\($0)=\(site)-\($0)-0123456789abcdef; Domain=\(domain); Max-Age=86400" }
            store.store(setCookieHeaders: domainCookies, for: URL(string: "https://\(domain)/")!)
            store.store(
                setCookieHeaders: ["root=r\(site); Path=/", "app=a\(site); Path=/app",
                                   "cart=c\(site); Path=/app/cart; Secure; HttpOnly"],
                for: URL(string: "https://www.\(domain)/")!)
            store.store(setCookieHeaders: ["token=t\(site); Secure", "v=1"],
                        for: URL(string: "https://api.\(domain)/v1/")!)
        }
        // Visit the sites in a scattered order, so that consecutive requests do not share cache lines.
        requests = (0..<Self.sites).map { index in
            URL(string: "https://www.site\((index * 7919) % Self.sites).com/app/cart/items?page=2")!
        }
        guard store.count == 10_000 else {
            throw UnexpectedResponse(description: "the store holds \(store.count) cookies, not 10,000")
        }
        let header = store.cookieHeader(for: requests[0]) ?? ""
        guard header.split(separator: ";").count == 8, header.hasPrefix("cart=") else {
            throw UnexpectedResponse(description: "unexpected Cookie header \(header)")
        }
    }
}

let currentCookieFixture = Mutex<CookieBenchmarkFixture?>(nil)

/// Registers the cookie benchmarks; called from `benchmarks` in TapedeckBenchmarks.swift.
func cookieBenchmarks() {
    // One `Cookie` header per iteration for a URL the session already holds: the lookup through the domain index,
    // path and Secure checks, ordering, the header string and the last-access update. Target: p50 ≤ 2 µs.
    Benchmark(
        "Cookie header, 10k cookies",
        configuration: .init(
            metrics: [.wallClock, .throughput, .mallocCountTotal],
            warmupIterations: 1_000,
            scalingFactor: .one,
            maxDuration: .seconds(5),
            maxIterations: 1_000_000
        ),
        closure: { benchmark in
            guard let fixture = currentCookieFixture.withLock({ $0 }) else {
                fatalError("cookie fixture missing: setup hook did not run")
            }
            var index = 0
            for _ in benchmark.scaledIterations {
                blackHole(fixture.store.cookieHeader(for: fixture.requests[index]))
                index = index == fixture.requests.count - 1 ? 0 : index + 1
            }
        },
        setup: {
            let fixture = try CookieBenchmarkFixture()
            currentCookieFixture.withLock { $0 = fixture }
        },
        teardown: { currentCookieFixture.withLock { $0 = nil } }
    )
}
