import Foundation
import TapedeckCassette
import TapedeckCLICore

/// The VCR cassette reader (`VCRImport.cassette(fromYAMLData:)`: vcrpy's and Ruby VCR's YAML, within the YAML limits,
/// bodies decoded as the cassette says). What it imports is kept as a Tapedeck cassette, so it must survive saving:
/// the encoded cassette decodes again to the same cassette.
enum VCRCassetteTarget {
    static let target = FuzzTarget(
        name: "vcr-cassette",
        summary: "VCRImport.cassette(fromYAMLData:); an imported cassette encodes and decodes back to itself"
    ) { data in
        guard let imported = try? VCRImport.cassette(fromYAMLData: data, file: "fuzz.yaml", recordedAt: Date(timeIntervalSince1970: 0))
        else { return }
        let again: Cassette
        do {
            again = try CassetteCodec.decode(CassetteCodec.encode(imported.cassette), file: "fuzz-imported.json")
        } catch {
            FuzzCheck.require(false, "the imported cassette, encoded, does not decode: \(error)")
            return
        }
        FuzzCheck.require(again == imported.cassette, "the imported cassette changed in an encode/decode round trip")
    }
}
