import Foundation

/// The `Basic` scheme (RFC 7617): the user name and password, joined by a colon, as Base64 of their UTF-8 bytes.
///
/// ```swift
/// request.headers["Authorization"] = BasicAuthentication.authorization(for: Credential(user: "Aladdin", password: "open sesame"))
/// // "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ=="
/// ```
public enum BasicAuthentication {
    /// The `Authorization` (or `Proxy-Authorization`) value for `credential`. A user name containing a colon cannot be
    /// told apart from the password by the server; RFC 7617 forbids it, and it is sent as it is.
    public static func authorization(for credential: Credential) -> String {
        "Basic " + Data("\(credential.user):\(credential.password)".utf8).base64EncodedString()
    }
}
