import TapedeckCore

extension StubServer {
    /// Throws a ``VerificationError`` with a readable report unless the server received the expected number of
    /// requests matching `matcher`; see ``RequestJournal/verify(_:count:)``.
    ///
    /// ```swift
    /// try server.verify(RequestPattern(.get, "/users/{id}"), count: .exactly(2))
    /// ```
    public func verify(_ matcher: RequestPattern, count: CountExpectation = .atLeast(1)) throws(VerificationError) {
        try journal.verify(matcher, count: count)
    }
}
