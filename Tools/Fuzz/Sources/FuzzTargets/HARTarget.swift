import Foundation
import TapedeckCassette

/// The HAR importer (`HARCodec.import`). What it imports must export as HAR that imports again with the same number
/// of interactions.
enum HARTarget {
    static let target = FuzzTarget(
        name: "har",
        summary: "HARCodec.import; an imported cassette exports as HAR that imports again"
    ) { data in
        guard let cassette = try? HARCodec.import(data) else { return }
        let exported = HARCodec.export(cassette)
        do {
            let again = try HARCodec.import(exported)
            FuzzCheck.require(again.interactions.count == cassette.interactions.count,
                              "re-import gave \(again.interactions.count) interactions, not \(cassette.interactions.count)")
        } catch {
            FuzzCheck.require(false, "the exported HAR does not import: \(error)")
        }
    }
}
