import Foundation
import Tapedeck
import Testing

@Suite struct RequestSerializationErrorTests {
    private struct Underlying: Error {}
    private static let url = URL(string: "http://example.com/path")!
    private static let fileURL = URL(fileURLWithPath: "/nonexistent/file.bin")

    @Test func domainIsStable() {
        #expect(RequestSerializationError.errorDomain == "com.tapedeck.error.serialization.request")
    }

    @Test(arguments: [
        (RequestSerializationError.invalidJSONParameters(url: url, underlying: nil), -1016),
        (.invalidPropertyListParameters(url: url, underlying: nil), 3851),
        (.multipartNotAllowed(method: .get, url: url), 1),
        (.fileNotReadable(fileURL: fileURL, underlying: nil), -1000),
        (.queryStringSerializationFailed(url: url, underlying: Underlying()), 2),
        (.invalidURLString("::"), 3),
        (.bodyPartLengthMismatch(declared: 10, produced: 4), 4),
    ])
    func bridgesToNSErrorWithTheDocumentedCode(error: RequestSerializationError, code: Int) {
        let nsError = error as NSError
        #expect(nsError.domain == RequestSerializationError.errorDomain)
        #expect(nsError.code == code)
        #expect(!(nsError.localizedFailureReason ?? "").isEmpty)
        #expect(nsError.userInfo[NSLocalizedDescriptionKey] as? String == error.errorDescription)
    }

    @Test func failingRequestURLIsInUserInfo() {
        let nsError = RequestSerializationError.multipartNotAllowed(method: .head, url: Self.url) as NSError
        #expect(nsError.userInfo[NSURLErrorFailingURLErrorKey] as? URL == Self.url)
        #expect(nsError.localizedFailureReason == "A HEAD request cannot carry a multipart form body.")
    }

    @Test func underlyingErrorIsWrapped() {
        let underlying = NSError(domain: "TestDomain", code: 42)
        let error = RequestSerializationError.queryStringSerializationFailed(url: Self.url, underlying: underlying)
        let wrapped = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        #expect(wrapped?.domain == "TestDomain")
        #expect(wrapped?.code == 42)
        #expect((error.underlyingError as? NSError) === underlying)
    }

    @Test func fileErrorsCarryThePathAndAFNetworkingsReasons() {
        let missing = RequestSerializationError.fileNotReadable(fileURL: Self.fileURL, underlying: nil) as NSError
        #expect(missing.userInfo[NSFilePathErrorKey] as? String == "/nonexistent/file.bin")
        #expect(missing.localizedFailureReason == "File URL not reachable.")
        #expect(missing.userInfo[NSURLErrorFailingURLErrorKey] == nil)
        let remote = URL(string: "http://example.com/file.bin")!
        let notFile = RequestSerializationError.fileNotReadable(fileURL: remote, underlying: nil) as NSError
        #expect(notFile.localizedFailureReason == "Expected URL to be a file URL")
    }

    @Test func localizedErrorDescribesTheFailure() {
        let error: any Error = RequestSerializationError.invalidURLString("")
        #expect(error.localizedDescription == "The URL string is not a valid URL.")
    }
}
