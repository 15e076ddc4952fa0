import Foundation

extension CookieStore {
    /// A store holding the cookies saved in `fileURL` by ``save(to:includingSessionCookies:)``, less those that have
    /// expired since.
    ///
    /// ```swift
    /// let cookies = try CookieStore(contentsOf: URL(filePath: "cookies.json"))
    /// ```
    ///
    /// - Throws: ``CookieStoreError/unreadableFile(path:reason:)`` when the file cannot be read,
    ///   ``CookieStoreError/corruptFile(path:field:reason:)`` naming the field (`cookies[2].expires`) when it is not a
    ///   valid cookie file, ``CookieStoreError/unsupportedVersion(path:version:)`` for a newer format.
    public convenience init(contentsOf fileURL: URL, clock: any WallClock = .system) throws(CookieStoreError) {
        let path = fileURL.path(percentEncoded: false)
        let data: Data
        do {
            data = try Data(contentsOf: fileURL)
        } catch {
            throw .unreadableFile(path: path, reason: Self.reason(error))
        }
        let cookies = try CookieFile.decode(data, path: path)
        self.init(clock: clock)
        load(cookies)
    }

    /// Writes the store's cookies to `fileURL` as versioned JSON, atomically (a temporary file renamed over the old
    /// one). Session cookies (no expiry) are left out unless `includingSessionCookies` is `true`; expired cookies
    /// are never written.
    ///
    /// - Throws: ``CookieStoreError/unwritableFile(path:reason:)``.
    public func save(to fileURL: URL, includingSessionCookies: Bool = false) throws(CookieStoreError) {
        let now = self.now
        let cookies = snapshot().filter { cookie in
            (includingSessionCookies || cookie.expires != nil) && !cookie.isExpired(at: now)
        }
        let data: Data
        do {
            data = try CookieFile.encode(cookies)
        } catch {
            throw .unwritableFile(path: fileURL.path(percentEncoded: false), reason: "cannot encode: \(error)")
        }
        try CookieFile.writeAtomically(data, to: fileURL)
    }

    private static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain,
           let code = POSIXErrorCode(rawValue: Int32(underlying.code)) {
            return POSIXError(code).localizedDescription
        }
        return nsError.localizedDescription
    }
}
