import Foundation
import Testing
@testable import TapedeckCassette
import TapedeckTestSupport

/// A body too large to hold in memory is redacted as it streams to disk (``BodyRedactionStream``): the same rules as a
/// body held whole, whatever the chunks, and no unredacted byte in the capture file at any time.
@Suite struct StreamingRedactionTests {
    /// Runs `body` through a stream in chunks of the given sizes (cycled).
    private static func streamed(_ body: Data, redaction: Redaction = Redaction(), contentType: String? = "application/json",
                                 secrets: [String] = [], chunkSizes: [Int]) -> (Data, [String]) {
        let noted = Locked<[String]>([])
        var stream = BodyRedactionStream(redaction: redaction, contentType: contentType, secrets: SecretOccurrences(secrets),
                                         noteSecrets: { found in noted.withLock { $0 += found } })
        var output = Data()
        var offset = 0, turn = 0
        while offset < body.count {
            let size = max(1, chunkSizes[turn % chunkSizes.count])
            output.append(stream.feed(body.subdata(in: offset..<min(body.count, offset + size))))
            offset += size
            turn += 1
        }
        output.append(stream.finish())
        return (output, noted.withLock { $0 })
    }

    /// JSON documents with secrets in every place the rules look: nested members, arrays of objects, escapes,
    /// numbers, benign values under fragment names, and spacing.
    private static let documents: [String] = [
        #"{"user":"ada","password":"hunter2-very-secret","nested":{"api_key":"k-123456789","count":3}}"#,
        #"[{"token":"t0k3n-aaaaaaaaa"},{"token":null},{"access_token":"t0k3n-bbbbbbbbb","token_type":"bearer"}]"#,
        "{\n  \"credentials\" : { \"user\" : \"x\", \"pass\" : \"y\" },\n  \"items\" : [ 1, 2.5e3, -7 ],\n  \"secret\" : 123456789012\n}",
        #"{"esc\"aped":"a\"b\\c","password":"p\u00e4ss\"w\\ord-long-enough","max_tokens":1024,"tokens_used":17}"#,
        #"{"a":{"b":{"c":[{"client_secret":"cs-abcdefghijkl","ok":true}]}},"refresh_token":"rt-zzzzzzzzzzzz"}"#,
    ]

    @Test(arguments: [[1], [2, 3, 5], [7, 1, 64], [4096]])
    func jsonBodiesAreRedactedAsTheWholeBodyIsWhateverTheChunks(chunkSizes: [Int]) throws {
        let redaction = Redaction()
        for document in Self.documents {
            let body = Data(document.utf8)
            let whole = redaction.redactBody(body, contentType: "application/json", scrubbing: [])
            let (streamed, _) = Self.streamed(body, redaction: redaction, chunkSizes: chunkSizes)
            #expect(try CassetteJSON.parse(streamed) == CassetteJSON.parse(whole), "\(document) in chunks of \(chunkSizes)")
        }
    }

    /// Strings full of backslashes and escaped quotes, cut anywhere: the stage finds where each string ends as a
    /// whole-document parse does (it jumps from quote to quote and counts the backslashes before each).
    @Test func escapesAreReadAcrossAnyCut() throws {
        var generator = SystemRandomNumberGenerator()
        // Each piece is valid inside a JSON string: an escaped backslash, an escaped quote, both, a letter, a
        // two-byte character, an escaped line break, two escaped backslashes.
        let pieces = [#"\\"#, #"\""#, #"\\\""#, "a", "é", #"\n"#, #"\\\\"#]
        let redaction = Redaction()
        for round in 0..<200 {
            let value = (0..<Int.random(in: 0...12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let name = round % 3 == 0 ? #"no\"te"# : "note"
            let document = #"{"\#(name)":"\#(value)","password":"pw-\#(value)-\#(round)","n":[1,"\#(value)"]}"#
            let body = Data(document.utf8)
            let whole = redaction.redactBody(body, contentType: "application/json", scrubbing: [])
            let size = Int.random(in: 1...9, using: &generator)
            let (streamed, _) = Self.streamed(body, redaction: redaction, chunkSizes: [size, size + 1])
            #expect(try CassetteJSON.parse(streamed) == CassetteJSON.parse(whole), "\(document) in chunks of \(size)")
        }
    }

    @Test func jsonPathFiltersReplaceTheMembersTheyName() throws {
        var redaction = Redaction()
        redaction.filters = [.jsonPath("account.iban", replacement: "IBAN"), .jsonPath("items.*.card", replacement: "CARD")]
        let body = Data(#"{"account":{"iban":"DE44500105175407324931","name":"x"},"items":[{"card":{"n":1}},{"card":"4111"}]}"#.utf8)
        let whole = redaction.redactBody(body, contentType: "application/json", scrubbing: [])
        for sizes in [[1], [3, 11], [1 << 16]] {
            let (streamed, _) = Self.streamed(body, redaction: redaction, chunkSizes: sizes)
            #expect(try CassetteJSON.parse(streamed) == CassetteJSON.parse(whole))
            #expect(String(decoding: streamed, as: UTF8.self).contains("IBAN"))
        }
    }

    /// A replacement is written between quotes as it is when it needs no escape (a stand-in, the placeholder), and
    /// escaped as the whole-document writer escapes it otherwise.
    @Test func replacementsAreEscapedAsTheWholeBodyEscapesThem() throws {
        let replacements = [#"say "no""#, #"back\slash"#, "a/b", "tab\there", "é-ü", "line\u{1}", "REDACTED-plain"]
        for replacement in replacements {
            let salt = RedactionSalt.random()
            var redaction = Redaction().standingIn(salt)
            redaction.filters = [.jsonPath("account.iban", replacement: replacement)]
            let body = Data(#"{"account":{"iban":"DE44500105175407324931"},"password":"pw-long-enough-1"}"#.utf8)
            let whole = redaction.redactBody(body, contentType: "application/json", scrubbing: [])
            let (streamed, _) = Self.streamed(body, redaction: redaction, chunkSizes: [5])
            #expect(try CassetteJSON.parse(streamed) == CassetteJSON.parse(whole), "replacement \(replacement)")
            #expect(String(decoding: streamed, as: UTF8.self).contains(StandIn.make(for: "pw-long-enough-1", salt: salt)))
        }
    }

    @Test func ndjsonIsRedactedLineByLineAndTheSecretsItHoldsAreNoted() {
        let lines = (0..<200).map { #"{"seq":\#($0),"session_token":"st-\#(String(repeating: "q", count: 12))-\#($0)"}"# }
        let body = Data(lines.joined(separator: "\n").utf8)
        let (streamed, noted) = Self.streamed(body, chunkSizes: [13, 977])
        let text = String(decoding: streamed, as: UTF8.self)
        #expect(!text.contains("st-qqqq"))
        #expect(text.split(separator: "\n").count == 200)
        #expect(noted.count == 200)
        #expect(text.contains(#"{"seq":199,"session_token":"[REDACTED]"}"#))
    }

    @Test func copiesOfKnownSecretsAreScrubbedAcrossChunkAndSegmentBoundaries() {
        let secret = "sk-live-0123456789abcdef"
        // Text with no line break for over two segments, a copy of the secret straddling each segment limit.
        var text = String(repeating: "a", count: BodyRedactionStream.segmentLimit - 10) + secret
        text += String(repeating: "b", count: BodyRedactionStream.segmentLimit - 5) + secret + " end\n" + secret
        let body = Data(text.utf8)
        for sizes in [[1 << 16], [7, 65_521], [BodyRedactionStream.segmentLimit + 3]] {
            let (streamed, _) = Self.streamed(body, contentType: "text/plain", secrets: [secret], chunkSizes: sizes)
            let output = String(decoding: streamed, as: UTF8.self)
            #expect(!output.contains(secret), "chunks of \(sizes)")
            #expect(output.components(separatedBy: Redaction.placeholder).count == 4)
            #expect(output.hasSuffix(" end\n" + Redaction.placeholder))
        }
    }

    @Test func aSecretFoundInTheBodyIsScrubbedFromWhatFollows() {
        let token = "tok-found-in-the-body-42"
        let body = Data(#"[{"token":"\#(token)"},{"note":"echo \#(token) here"}]"#.utf8)
        let (streamed, noted) = Self.streamed(body, chunkSizes: [5])
        #expect(!String(decoding: streamed, as: UTF8.self).contains(token))
        #expect(noted == [token])
    }

    @Test func regexFiltersApplyWithinEachLine() throws {
        var redaction = Redaction()
        redaction.filters = [try .regex(#"card=\d{16}"#, replacement: "card=XXXX")]
        let body = Data((0..<5000).map { "line \($0) card=4111111111111111 ok" }.joined(separator: "\n").utf8)
        let whole = redaction.redactBody(body, contentType: "text/plain", scrubbing: [])
        let (streamed, _) = Self.streamed(body, redaction: redaction, contentType: "text/plain", chunkSizes: [333])
        #expect(streamed == whole)
    }

    @Test func formFieldsAreRedactedPairByPair() {
        let body = Data((0..<3000).map { "field\($0)=v\($0)&password=pw-\($0)-long-secret" }.joined(separator: "&").utf8)
        let redaction = Redaction()
        let whole = redaction.redactBody(body, contentType: "application/x-www-form-urlencoded", scrubbing: [])
        let (streamed, _) = Self.streamed(body, contentType: "application/x-www-form-urlencoded", chunkSizes: [101])
        #expect(streamed == whole)
        #expect(!String(decoding: streamed, as: UTF8.self).contains("long-secret"))
    }

    @Test func binaryAndUnchangedBodiesPassByteForByte() {
        var generator = SystemRandomNumberGenerator()
        let binary = Data((0..<300_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        #expect(Self.streamed(binary, contentType: "application/octet-stream", secrets: ["not-in-there-123"], chunkSizes: [4093]).0 == binary)
        let plain = Data(#"{"id": 7,  "name" : "ada", "tags":["a","b"], "n": 1.50}"#.utf8)
        #expect(Self.streamed(plain, chunkSizes: [1]).0 == plain)
    }

    /// The capture itself: past the sidecar threshold, the temporary file holds only redacted bytes while the body is
    /// still arriving, and the sidecar it becomes is the streamed redaction.
    @Test func aSpilledBodyIsRedactedBeforeItReachesTheCaptureFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cassette = directory.cassette("big.json")
        let password = "pw-never-on-disk-0b7d55"
        let capture = BodyCapture(cassette: cassette, threshold: 1024) {
            BodyRedactionStream(redaction: Redaction(), contentType: "application/json", secrets: SecretOccurrences())
        }
        let record = #"{"user":"u","password":"\#(password)","filler":"\#(String(repeating: "f", count: 200))"}"#
        let records = Array(repeating: record, count: 2000)
        let body = Data(("[" + records.joined(separator: ",") + "]").utf8)
        var offset = 0
        let folder = directory.url.appendingPathComponent("big.bodies")
        while offset < body.count {
            capture.append(body.subdata(in: offset..<min(body.count, offset + 8191)))
            offset += 8191
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
                let bytes = try Data(contentsOf: folder.appendingPathComponent(name))
                #expect(bytes.range(of: Data(password.utf8)) == nil, "\(name) held the password at byte \(offset)")
            }
        }
        let stored = try capture.finish()
        let sidecar = try #require(stored.sidecarPath)
        let bytes = try Data(contentsOf: directory.url.appendingPathComponent(sidecar))
        #expect(bytes.range(of: Data(password.utf8)) == nil)
        #expect(stored.byteCount == Int64(bytes.count))
        #expect(sidecar.contains(ContentHash.of(bytes)))
        let parsed = try CassetteJSON.parse(bytes)
        guard case .array(let elements) = parsed else { Issue.record("not an array"); return }
        #expect(elements.count == 2000)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".capture") }.isEmpty)
    }

    @Test func aRegexThatGivesUpOnASpilledBodyRefusesIt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cassette = directory.cassette("bad.json")
        let redaction = Redaction(filters: [try .regex(#"(a+)+$"#, replacement: "X")])
        let capture = BodyCapture(cassette: cassette, threshold: 1024) {
            BodyRedactionStream(redaction: redaction, contentType: "text/plain", secrets: SecretOccurrences())
        }
        capture.append(Data((String(repeating: "a", count: 30_000) + "!").utf8))
        #expect(throws: CassetteError.self) { try capture.finish() }
        let folder = directory.url.appendingPathComponent("bad.bodies")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).isEmpty)
    }

    /// A secret learned after a large sidecar was written is scrubbed from it as it streams to a new file.
    @Test func aLargeSidecarIsRescrubbedByStreaming() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cassette = directory.cassette("late.json")
        let secret = "late-learned-secret-91ab"
        let old = Data((String(repeating: "row without it\n", count: 100_000) + "row with \(secret)\n" + String(repeating: "z", count: 3 << 20)).utf8)
        let oldName = CassetteFile.sidecarFolder(cassette) + "/old.bin"
        try FileManager.default.createDirectory(at: directory.url.appendingPathComponent(CassetteFile.sidecarFolder(cassette)),
                                                withIntermediateDirectories: true)
        try old.write(to: CassetteFile.sidecarURL(oldName, cassette: cassette))
        var interactions = [Interaction(request: .init(method: "GET", url: "https://example.test/big"),
                                        outcome: .response(.init(statusCode: 200, body: CassetteBody(sidecar: oldName, byteCount: Int64(old.count)))))]
        var rewrite = SidecarRewrite(cassette: cassette)
        let body = try #require(SidecarRewrite.bodies(of: Cassette(interactions: interactions)).first)
        #expect(try rewrite.replaceStreaming(body, through: BodyRedactionStream(scrubbing: SecretOccurrences([secret]), as: Redaction()), in: &interactions))
        let new = try #require(interactions[0].response?.body)
        let bytes = try CassetteFile.bodyData(new, cassette: cassette)
        #expect(bytes.range(of: Data(secret.utf8)) == nil)
        #expect(bytes == Data(String(decoding: old, as: UTF8.self).replacingOccurrences(of: secret, with: Redaction.placeholder).utf8))
        // Nothing left to scrub: the body stays where it is.
        let again = try #require(SidecarRewrite.bodies(of: Cassette(interactions: interactions)).first)
        #expect(try !rewrite.replaceStreaming(again, through: BodyRedactionStream(scrubbing: SecretOccurrences([secret]), as: Redaction()), in: &interactions))
    }

    /// The read that decides whether a large sidecar must be rewritten finds a copy wherever it is: cut between two
    /// reads (it reads a megabyte at a time), at either end, in any spelling; and no copy where there is none.
    @Test func aCopyIsFoundInALargeSidecarWhereverItIs() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cassette = directory.cassette("find.json")
        try FileManager.default.createDirectory(at: directory.url.appendingPathComponent(CassetteFile.sidecarFolder(cassette)),
                                                withIntermediateDirectories: true)
        let secret = "late-learned/secret-91ab"
        let secrets = SecretOccurrences(["another-secret-0000", secret])
        func holds(_ copy: String, at offset: Int, in size: Int) throws -> Bool {
            var bytes = [UInt8](repeating: UInt8(ascii: "z"), count: size)
            bytes.replaceSubrange(offset..<(offset + copy.utf8.count), with: Array(copy.utf8))
            let name = CassetteFile.sidecarFolder(cassette) + "/\(offset).bin"
            try Data(bytes).write(to: CassetteFile.sidecarURL(name, cassette: cassette))
            let body = SidecarRewrite.Body(index: 0, isRequest: false, path: name, contentType: nil, contentEncoding: nil, byteCount: Int64(size))
            return try SidecarRewrite(cassette: cassette).holdsCopy(of: secrets, in: body)
        }
        let megabyte = 1 << 20
        for offset in [0, megabyte - 10, megabyte - 1, megabyte, 2 * megabyte - 3, 3 * megabyte - secret.utf8.count] {
            #expect(try holds(secret, at: offset, in: 3 * megabyte), "at \(offset)")
        }
        #expect(try holds(#"late-learned\/secret-91ab"#, at: megabyte - 7, in: 3 * megabyte))
        #expect(try holds("late%2Dlearned%2Fsecret%2D91ab", at: 2 * megabyte - 20, in: 3 * megabyte))
        #expect(try !holds(String(secret.dropLast()), at: megabyte - 10, in: 3 * megabyte))
        #expect(try !holds("", at: 0, in: 0))
    }
}

/// ``SecretOccurrences`` finds what scrubbing one secret at a time would find.
@Suite struct SecretOccurrencesTests {
    @Test func itFindsEverySpellingTheScrubReplaces() {
        let secrets = (0..<500).map { "tok-\($0)-abcdef\($0 * 7919)" } + ["a/b+c=d/secret-with-slashes", "short", "üñí-cøde-long-enough"]
        let occurrences = SecretOccurrences(secrets)
        let text = #"x tok-17-abcdef134623 y {"p":"a\/b+c=d\/secret-with-slashes"} q=a%2Fb%2Bc%3Dd%2Fsecret%2Dwith%2Dslashes shortly üñí-cøde-long-enough"#
        #expect(occurrences.present(in: text) == ["tok-17-abcdef134623", "a/b+c=d/secret-with-slashes", "short", "üñí-cøde-long-enough"])
        #expect(occurrences.present(in: "nothing here at all, tok-17-abcdef13462") == [])
        // The scrub with many secrets (indexed) gives what the scrub of the present ones alone gives.
        let redaction = Redaction()
        #expect(redaction.scrub(text, secrets: secrets) == redaction.scrub(text, secrets: occurrences.present(in: text)))
        #expect(!redaction.scrub(text, secrets: secrets).contains("secret-with-slashes"))
    }

    /// Against a search for every spelling one by one, at every offset: long spellings alone (the scan skips
    /// positions) and with medium ones (it reads every position), copies at the text's ends and cut short.
    @Test(arguments: [false, true]) func itFindsWhatASearchOfEverySpellingFinds(withMediumSpellings: Bool) {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("abcdef0123456789-/_".utf8)
        func word(_ length: Int) -> String { String(decoding: (0..<length).map { _ in alphabet.randomElement(using: &generator)! }, as: UTF8.self) }
        let lengths = withMediumSpellings ? Array(8...40) : Array(15...40)
        let secrets = (0..<300).map { _ in word(lengths.randomElement(using: &generator)!) }
        let occurrences = SecretOccurrences(secrets)
        for _ in 0..<200 {
            var text = word(Int.random(in: 0...60, using: &generator))
            for _ in 0..<Int.random(in: 0...3, using: &generator) {
                var spellings: [String] = []
                let secret = secrets.randomElement(using: &generator)!
                SecretOccurrences.forEachSpelling(of: secret) { spellings.append(String(decoding: $0, as: UTF8.self)) }
                let spelling = spellings.randomElement(using: &generator)!
                // Sometimes cut short, so that it is not a copy.
                text += Bool.random(using: &generator) ? spelling : String(spelling.dropLast())
                text += word(Int.random(in: 0...20, using: &generator))
            }
            let expected = secrets.filter { secret in
                var found = false
                SecretOccurrences.forEachSpelling(of: secret) { if text.contains(String(decoding: $0, as: UTF8.self)) { found = true } }
                return found
            }
            #expect(occurrences.present(in: text) == expected, "in \(text)")
            let any = Array(text.utf8).withUnsafeBufferPointer { occurrences.occursAny(in: $0) }
            #expect(any == !expected.isEmpty)
        }
    }

    @Test func itHoldsEachSecretOnce() {
        var occurrences = SecretOccurrences(["tok-1234567890", "tiny"])
        #expect(occurrences.add(["tok-1234567890", "tok-1234567891", "tiny", "tinier", "tok%2D1234567890"]) == ["tok-1234567891", "tinier", "tok%2D1234567890"])
        #expect(occurrences.secrets == ["tok-1234567890", "tiny", "tok-1234567891", "tinier", "tok%2D1234567890"])
        let insertedAgain = occurrences.insert("tok%2D1234567890")
        #expect(!insertedAgain)
    }

    /// The ASCII path spells a secret as Foundation's `addingPercentEncoding(withAllowedCharacters: .alphanumerics)`.
    @Test func percentEncodingWithoutFoundationMatchesFoundation() {
        let ascii = String(decoding: (0..<0x80).map { UInt8($0) }, as: UTF8.self)
        for text in [ascii, "tok-1/2+3=4 ~_.", "a%2Fb", ""] {
            #expect(PlaceholderSecrets.percentEncoded(text) == text.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        }
    }

    @Test func aBodyWithAFoundSecretOnEveryRecordStreamsInLinearTime() {
        // 20,000 records, each with its own token: each becomes a secret to scrub from the rest of the body.
        let lines = (0..<20_000).map { #"{"n":\#($0),"session_token":"st-\#($0)-9f8e7d6c5b4a","p":"\#(String(repeating: "p", count: 100))"}"# }
        let body = Data((lines + ["trailer echoing st-19999-9f8e7d6c5b4a"]).joined(separator: "\n").utf8)
        var stream = BodyRedactionStream(redaction: Redaction(), contentType: "application/x-ndjson", secrets: SecretOccurrences())
        var output = Data()
        for start in stride(from: 0, to: body.count, by: 1 << 16) { output.append(stream.feed(body.subdata(in: start..<min(body.count, start + (1 << 16))))) }
        output.append(stream.finish())
        let text = String(decoding: output, as: UTF8.self)
        #expect(!text.contains("9f8e7d6c5b4a"))
        #expect(text.hasSuffix("trailer echoing \(Redaction.placeholder)"))
    }
}
