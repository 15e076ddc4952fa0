import Foundation

/// The `URLError` code `body` threw, or `nil` if it returned or threw something else.
///
/// ```swift
/// let code = await urlErrorCode { _ = try await transport.send(HTTPRequest(url: server.url("/slow"), timeoutInterval: 0.2)) }
/// #expect(code == .timedOut)
/// ```
public func urlErrorCode(
    isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Void
) async -> URLError.Code? {
    do {
        try await body()
        return nil
    } catch let error as URLError {
        return error.code
    } catch {
        return nil
    }
}
