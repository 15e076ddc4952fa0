import Foundation
import TapedeckCassette

/// The cassette JSON reader (`CassetteCodec.decode`). A cassette it accepts must survive encoding: the encoded form
/// decodes again to the same cassette, as recording and re-saving rely on.
enum CassetteJSONTarget {
    static let target = FuzzTarget(
        name: "cassette-json",
        summary: "CassetteCodec.decode; an accepted cassette encodes and decodes back to itself"
    ) { data in
        guard let cassette = try? CassetteCodec.decode(data, file: "fuzz.json") else { return }
        let encoded = CassetteCodec.encode(cassette)
        let again: Cassette
        do {
            again = try CassetteCodec.decode(encoded, file: "fuzz-reencoded.json")
        } catch {
            FuzzCheck.require(false, "the encoded cassette does not decode: \(error)")
            return
        }
        FuzzCheck.require(again == cassette, "the cassette changed in an encode/decode round trip")
    }
}
