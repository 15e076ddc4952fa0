import Foundation
import Testing
import TapedeckSession

/// `Basic` (RFC 7617): Base64 of `user:password` in UTF-8.
@Suite struct BasicAuthenticationTests {
    @Test func theRFC7617Example() {
        #expect(BasicAuthentication.authorization(for: Credential(user: "Aladdin", password: "open sesame"))
            == "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==")
    }

    @Test func theRFC7617UTF8Example() {
        // RFC 7617 §2.1: user "test", password "123£" with charset="UTF-8".
        #expect(BasicAuthentication.authorization(for: Credential(user: "test", password: "123\u{A3}")) == "Basic dGVzdDoxMjPCow==")
    }

    @Test func aCredentialNeverPrintsItsPassword() {
        let credential = Credential(user: "ada", password: "hunter2")
        #expect(!String(describing: credential).contains("hunter2"))
        #expect(!String(reflecting: credential).contains("hunter2"))
        #expect(String(describing: credential).contains("ada"))
    }
}
