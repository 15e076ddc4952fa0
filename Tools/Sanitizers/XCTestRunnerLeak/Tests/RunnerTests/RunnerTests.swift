import Nothing
import XCTest

// Two tests that allocate nothing that outlives them, one synchronous and one async. LeakSanitizer should report
// nothing; with Swift 6.3.1's swift-corelibs-xctest on Linux, either test alone reports one direct leak, the weak
// reference side table that awaitUsingExpectation (every test goes through it) makes, and 13 indirect ones under it:
// the test case, its XCTestCaseRun and the suite runs XCTMainMisc made. A weak reference's side table is found only
// through the object's refcount word, which holds its address shifted with flag bits, so LSan cannot see that
// anything points to it: the runner's blind spot, not a leak of the tests.
final class RunnerTests: XCTestCase {
    func testSync() {
        XCTAssertEqual(nothing, 0)
    }

    func testAsync() async {
        await Task.yield()
        XCTAssertEqual(nothing, 0)
    }
}
