import Foundation
import TapedeckStubServer

/// Stub-definition JSON (`Stub.decodeList`, as stub files and the admin API read it). Every stub it accepts must
/// encode (as stub listings do) to a definition that decodes again, unless its responder has no JSON form.
enum StubDefinitionTarget {
    static let target = FuzzTarget(
        name: "stub-definition",
        summary: "Stub.decodeList; each accepted stub's listing decodes again"
    ) { data in
        guard let stubs = try? Stub.decodeList(data) else { return }
        for stub in stubs {
            let listing: Data
            do {
                listing = try JSONEncoder().encode(stub)
            } catch {
                FuzzCheck.require(false, "stub \(stub.id) does not encode: \(error)")
                return
            }
            do {
                let again = try Stub.decode(listing)
                FuzzCheck.require(again.id == stub.id, "stub \(stub.id) came back as \(again.id)")
            } catch {
                FuzzCheck.require(false, "the listing of stub \(stub.id) does not decode: \(error)\n"
                                  + String(decoding: listing, as: UTF8.self))
            }
        }
    }
}
