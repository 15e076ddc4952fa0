import Foundation
import Testing
import TapedeckSession

/// `CredentialStore`: credentials by protection space (origin, realm, proxy or not), with a realm-less fallback.
@Suite struct CredentialStoreTests {
    let api = URL(string: "https://API.example.com/v1/items")!
    let ada = Credential(user: "ada", password: "one")
    let bob = Credential(user: "bob", password: "two")

    @Test func aProtectionSpaceIsTheOriginRealmAndProxyFlag() {
        let space = ProtectionSpace(url: api, realm: "r")
        #expect(space == ProtectionSpace(urlScheme: "HTTPS", host: "api.example.com", port: 443, realm: "r"))
        #expect(space != ProtectionSpace(url: api, realm: "R"), "realms are case-sensitive")
        #expect(space != ProtectionSpace(url: api, realm: "r", isProxy: true))
        #expect(ProtectionSpace(url: URL(string: "http://h")!, realm: nil).port == 80)
        #expect(ProtectionSpace(url: URL(string: "http://h:8080/x")!, realm: nil).port == 8080)
        let challenge = AuthenticationChallenge(scheme: .basic, parameters: ["realm": "p"], isProxy: true)
        #expect(ProtectionSpace(challenge: challenge, url: URL(string: "http://proxy:3128")!)
            == ProtectionSpace(urlScheme: "http", host: "proxy", port: 3128, realm: "p", isProxy: true))
        #expect(String(describing: space) == #"https://api.example.com:443 realm="r""#)
    }

    @Test func exactSpaceFirstThenTheOriginWithoutRealm() {
        let store = CredentialStore()
        store.set(ada, for: ProtectionSpace(url: api, realm: nil))
        store.set(bob, for: ProtectionSpace(url: api, realm: "admin"))
        #expect(store.credential(for: ProtectionSpace(url: api, realm: "admin")) == bob)
        #expect(store.credential(for: ProtectionSpace(url: api, realm: "anything")) == ada)
        #expect(store.credential(for: ProtectionSpace(url: api, realm: "anything", isProxy: true)) == nil)
        #expect(store.credential(for: ProtectionSpace(url: URL(string: "http://api.example.com")!, realm: nil)) == nil)
        store.removeCredential(for: ProtectionSpace(url: api, realm: "admin"))
        #expect(store.credential(for: ProtectionSpace(url: api, realm: "admin")) == ada)
        store.removeAll()
        #expect(store.allCredentials.isEmpty)
    }

    @Test func aCredentialForOneRequestIsNotStored() {
        let store = CredentialStore()
        store.set(Credential(user: "ada", password: "one", persistence: .none), for: ProtectionSpace(url: api, realm: nil))
        #expect(store.allCredentials.isEmpty)
    }

    @Test func concurrentUseIsSafe() async {
        let store = CredentialStore()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                group.addTask {
                    let space = ProtectionSpace(url: api, realm: "r\(index % 10)")
                    store.set(Credential(user: "u\(index)", password: "p"), for: space)
                    _ = store.credential(for: space)
                }
            }
        }
        #expect(store.allCredentials.count == 10)
    }
}
