import Foundation
import Testing
import TapedeckCassette
import TapedeckTestSupport

/// A cassette may come from anyone: the sidecar bodies it names are read only from inside its folder, with symbolic
/// links resolved before the check (issue H9).
@Suite struct SidecarConfinementTests {
    @Test func aSidecarThatLeadsOutOfTheCassettesFolderIsRefusedWithItsPath() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let folder = directory.url.appendingPathComponent("cassettes")
        let bodies = folder.appendingPathComponent("bodies")
        try FileManager.default.createDirectory(at: bodies, withIntermediateDirectories: true)
        let cassette = folder.appendingPathComponent("c.json")
        try Data("inside".utf8).write(to: bodies.appendingPathComponent("inside.bin"))
        try Data("secret".utf8).write(to: directory.file("secret.bin"))
        try FileManager.default.createSymbolicLink(at: bodies.appendingPathComponent("link.bin"),
                                                   withDestinationURL: directory.file("secret.bin"))
        let inside = CassetteBody(sidecar: "bodies/inside.bin", byteCount: 6)
        #expect(try CassetteFile.bodyData(inside, cassette: cassette) == Data("inside".utf8))
        for name in ["bodies/link.bin", "../secret.bin"] {
            let error = #expect(throws: CassetteError.self) {
                try CassetteFile.bodyData(CassetteBody(sidecar: name, byteCount: 6), cassette: cassette)
            }
            let text = error?.description ?? ""
            #expect(text.contains("the sidecar body \(name) named in \(cassette.path)"), "\(text)")
            #expect(text.contains("leads out of"), "\(text)")
        }
    }
}
