import Foundation
import Testing
@testable import TapedeckTesting

@Suite struct CassetteLocationTests {
    let root = URL(fileURLWithPath: "/cassettes", isDirectory: true)

    @Test func aTestRecordsUnderItsSuiteFolder() {
        let url = CassetteLocation.url(name: nil, suitePath: ["AuthTests"], testName: "login()", arguments: [],
                                       sourceFile: "/nowhere/Tests.swift", root: root)
        #expect(url.path == "/cassettes/AuthTests/login.json")
    }

    @Test func parameterizedCasesAddTheirArguments() {
        let url = CassetteLocation.url(name: nil, suitePath: ["Outer", "Inner"], testName: "status(code:)",
                                       arguments: ["404", "\"not found\""], sourceFile: "/x.swift", root: root)
        #expect(url.path == "/cassettes/Outer/Inner/status--404-not_found.json")
    }

    @Test func anExplicitNameReplacesTheTestName() {
        let url = CassetteLocation.url(name: "shared/login.json", suitePath: ["AuthTests"], testName: "login()",
                                       arguments: ["1"], sourceFile: "/x.swift", root: root)
        #expect(url.path == "/cassettes/AuthTests/shared/login.json")
    }

    @Test(arguments: [
        ("login()", "login"),
        ("status(code:)", "status"),
        ("-[AuthTests testLogin]", "testLogin"),
        ("AuthTests.testLogin", "testLogin"),
    ])
    func functionNamesLoseTheirDecorations(name: String, expected: String) {
        #expect(CassetteLocation.functionName(name) == expected)
    }

    @Test func theRootComesFromTheEnvironmentThenThePackage() throws {
        let fromEnvironment = CassetteLocation.resolvedRoot(
            root: nil, sourceFile: #filePath, environment: [CassetteLocation.rootEnvironmentVariable: "/elsewhere"])
        #expect(fromEnvironment.path == "/elsewhere")
        let fromPackage = CassetteLocation.resolvedRoot(root: nil, sourceFile: #filePath, environment: [:])
        #expect(fromPackage.lastPathComponent == "Cassettes")
        #expect(FileManager.default.fileExists(atPath: fromPackage.deletingLastPathComponent().appendingPathComponent("Package.swift").path))
    }

    @Test func namesAreFileSafe() {
        #expect(CassetteLocation.sanitized("a/b c:d") == "a_b_c_d")
        #expect(CassetteLocation.sanitized("..") == "_")
        #expect(CassetteLocation.sanitized(String(repeating: "x", count: 200)).count == 80)
    }
}
