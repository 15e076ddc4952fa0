import Foundation
import Testing
@testable import TapedeckCassette

@Suite struct JSONCodecTests {
    @Test func parsesAndWritesBackByteForByte() throws {
        let documents = [
            #"{"b":1,"a":[true,false,null],"c":{"z":-1.50e+3,"y":"\u00e9\n\"q\""}}"#,
            #"[]"#, #"{}"#, #"[1,[2,[3]]]"#, #""plain""#,
        ]
        for text in documents {
            let value = try CassetteJSON.parse(text)
            let written = String(decoding: CassetteJSON.serialize(value), as: UTF8.self)
            // Escapes are normalized, everything else (order, numbers) is kept.
            #expect(try CassetteJSON.parse(written) == value)
        }
        let compact = #"{"b":1,"a":[true,null],"n":1.50}"#
        #expect(String(decoding: CassetteJSON.serialize(try CassetteJSON.parse(compact)), as: UTF8.self) == compact)
    }

    @Test func reportsLineAndColumnOfSyntaxErrors() {
        let text = "{\n  \"a\": 1,\n  \"b\": tru\n}"
        #expect(throws: JSONSyntaxError.self) { try CassetteJSON.parse(text) }
        do {
            _ = try CassetteJSON.parse(text)
        } catch {
            #expect(error.line == 3)
            #expect(error.column == 8)
        }
    }

    @Test func semanticEqualityIgnoresKeyOrderAndChosenPaths() throws {
        let a = try CassetteJSON.parse(#"{"a":1,"b":{"ts":5,"k":[1,2]},"items":[{"id":1,"at":"x"}]}"#)
        let b = try CassetteJSON.parse(#"{"b":{"k":[1,2],"ts":9},"a":1.0,"items":[{"at":"y","id":1}]}"#)
        #expect(!a.semanticallyEquals(b))
        #expect(a.firstDifference(from: b) == "b.ts")
        #expect(a.semanticallyEquals(b, ignoring: ["b.ts", "items.*.at"]))
    }

    @Test func bodyFormatsChosenFromBytes() throws {
        let compact = Data(#"{"a":"http://x/y","b":[1]}"#.utf8)
        #expect(spelling(of: CassetteBody(compact))?["encoding"] == "json")
        // Foundation's pretty printing with " : " and escaped slashes is recognised and reproduced.
        let foundation = try JSONSerialization.data(withJSONObject: ["url": "http://a/b", "n": [1, 2]], options: [.prettyPrinted, .sortedKeys])
        let encoded = try #require(spelling(of: CassetteBody(foundation)))
        #expect(encoded["encoding"] == "json")
        #expect(try BodyFormat.decode(encoded, at: "body", file: "f").inlineData == foundation)
        // Whitespace no style reproduces stays text; invalid UTF-8 is base64.
        #expect(spelling(of: CassetteBody(Data("{ \"a\":1}".utf8)))?["encoding"] == "utf8")
        let binary = Data([0xFF, 0x00, 0xD8, 0x01])
        let binaryJSON = try #require(spelling(of: CassetteBody(binary)))
        #expect(binaryJSON["encoding"] == "base64")
        #expect(try BodyFormat.decode(binaryJSON, at: "body", file: "f").inlineData == binary)
    }

    @Test func cassetteRoundTripIsByteIdentical() throws {
        var failing = interaction("POST", "http://127.0.0.1:1/x", body: #"{"k":"v"}"#)
        failing.outcome = .failure(.init(code: URLError.Code.timedOut.rawValue, message: "timed out", transportCode: 28, transportMessage: "Operation timed out"))
        failing.metrics = TransferMetrics(total: 5.000123)
        var tls = interaction("GET", "https://127.0.0.1:2/", responseBody: "hi")
        tls.peerCertificates = [Data([1, 2, 3])]
        let cassette = Cassette(interactions: [interaction("GET", "http://127.0.0.1:1/get?a=1", headers: ["X-A": "1", "X-A": "2"]), failing, tls])
        let data = CassetteCodec.encode(cassette)
        let decoded = try CassetteCodec.decode(data)
        #expect(decoded == cassette)
        #expect(CassetteCodec.encode(decoded) == data)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.hasPrefix("{\n  \"version\": 1,"))
        #expect(text.contains("\"recordedAt\": \"2023-11-14T22:13:20.123Z\""))
        #expect(text.contains("\"name\": \"timedOut\""))
        // Cassettes are written member by member, without a tree: the spelling must be the one the tree writer gives.
        #expect(CassetteJSON.serialize(try CassetteJSON.parse(data), style: .pretty) + Data([0x0A]) == data)
        let empty = Interaction(request: .init(method: "GET", url: "http://h/", headers: [:]), outcome: .response(.init(statusCode: 204)))
        let emptyData = CassetteCodec.encode(Cassette(interactions: [empty, failing]))
        #expect(CassetteJSON.serialize(try CassetteJSON.parse(emptyData), style: .pretty) + Data([0x0A]) == emptyData)
        #expect(String(decoding: emptyData, as: UTF8.self).contains("\"headers\": []"))
        #expect(CassetteCodec.encode(failing) == (try CassetteJSON.parse(data))["interactions"]?.arrayValue?[1])
    }

    @Test func unknownVersionAndCorruptFilesNameTheProblem() throws {
        #expect {
            try CassetteCodec.decode(Data(#"{"version": 7, "interactions": []}"#.utf8), file: "a.json")
        } throws: { error in
            guard case CassetteError.unsupportedVersion(file: "a.json", found: "7", supported: 3) = error else { return false }
            return "\(error)".contains("version 7") && (error as NSError).domain == "TapedeckCassetteErrorDomain" && (error as NSError).code == 2
        }
        #expect {
            try CassetteCodec.decode(Data("{\n  \"version\": 1,\n  \"interactions\": [\n    {,\n".utf8), file: "b.json")
        } throws: { error in
            guard case CassetteError.corrupt(file: "b.json", line: 4, column: 6, _) = error else { return false }
            return "\(error)".contains("b.json") && "\(error)".contains("line 4, column 6")
        }
        #expect {
            try CassetteCodec.decode(Data(#"{"version":1,"interactions":[{"recordedAt":"2020-01-01T00:00:00.000Z","request":{"method":"GET"}}]}"#.utf8), file: "c.json")
        } throws: { error in
            guard case CassetteError.invalidFormat(file: "c.json", path: "interactions[0].request.url", reason: "missing") = error else { return false }
            return true
        }
    }

    @Test func journalLinesCopyCompactBodiesAndSpellEverythingAsTheTreeWriterDoes() throws {
        let bodies = [#"{"sku":"A-1","n":[1,2.50,null]}"#, #"{ "spaced": true }"#, #"{"s":"caf\u00e9 \/"}"#, "plain text", "[]"]
        for (index, body) in bodies.enumerated() {
            var recorded = interaction("POST", "http://127.0.0.1:1/orders", body: body, responseBody: #"{"ok":true}"#)
            recorded.request.body = CassetteBody(Data(body.utf8), contentEncoding: index == 0 ? "gzip" : nil)
            let line = CassetteFile.journalLine(recorded, sequence: index)
            #expect(line.last == 0x0A)
            let tree = try CassetteJSON.parse(Data(line.dropLast()))
            #expect(Array(CassetteJSON.serialize(tree)) == Array(line.dropLast()), "\(body)")
            let read = try #require(try CassetteFile.journaledInteractions(Data(line), after: index, file: "j"))
            #expect(read == [recorded])
        }
    }

    @Test func bodiesNestedTooDeepForACassetteAreStoredAsText() throws {
        for depth in [CassetteJSON.maximumBodyDepth, CassetteJSON.maximumBodyDepth + 1, 511] {
            let body = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            let cassette = Cassette(interactions: [interaction("POST", "http://127.0.0.1:1/x", body: body)])
            let decoded = try CassetteCodec.decode(CassetteCodec.encode(cassette))
            #expect(decoded.interactions.first?.request.body.inlineData == Data(body.utf8), "depth \(depth)")
            let line = CassetteFile.journalLine(cassette.interactions[0], sequence: 0)
            #expect(try CassetteFile.journaledInteractions(Data(line), after: 0, file: "j") == cassette.interactions)
        }
        #expect(spelling(of: CassetteBody(Data((String(repeating: "[", count: 300) + String(repeating: "]", count: 300)).utf8)))?["encoding"] == "utf8")
    }

    @Test func stringsAreEscapedWhereverTheCharacterFallsInAnEightByteWord() throws {
        /// What the writer must produce, byte by byte.
        func reference(_ text: String, slashes: Bool) -> String {
            var result = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": result += "\\\""
                case "\\": result += "\\\\"
                case "\n": result += "\\n"
                case "\r": result += "\\r"
                case "\t": result += "\\t"
                case "\u{08}": result += "\\b"
                case "\u{0C}": result += "\\f"
                case "/" where slashes: result += "\\/"
                case _ where scalar.value < 0x20: result += String(format: "\\u%04x", scalar.value)
                default: result.unicodeScalars.append(scalar)
                }
            }
            return result + "\""
        }
        for special in ["\"", "\\", "\n", "\u{01}", "\u{1F}", "/", "\u{7F}", "é", " ", "~"] {
            for position in 0..<19 {
                let text = String(repeating: "a", count: position) + special + String(repeating: "b", count: 18 - position)
                for slashes in [false, true] {
                    var writer = JSONWriter(style: JSONWritingStyle(escapesSlashes: slashes))
                    writer.writeString(text)
                    #expect(String(decoding: writer.output.array, as: UTF8.self) == reference(text, slashes: slashes), "\(position) \(special.debugDescription)")
                }
            }
        }
        for value: Int64 in [0, 7, -7, 10, 1_234_567_890, .max, .min] {
            var writer = JSONWriter(style: .compact)
            writer.writeInteger(value)
            #expect(String(decoding: writer.output.array, as: UTF8.self) == String(value))
        }
        for value in [0, 0.000012, 1.5, 3, -2, 1e15, 1e300, .infinity, .nan] {
            var writer = JSONWriter(style: .compact)
            var object = writer.beginObject(level: 0)
            writer.member("d", double: value, in: &object)
            writer.end(object)
            #expect(writer.output.array == Array(CassetteJSON.serialize(.object([.init("d", .double(value))]))), "\(value)")
        }
    }

    @Test func aTimestampWithAnyNumberOfFractionDigitsParses() {
        // Found by the har fuzz target (Tools/Fuzz/Regressions/har): 60 digits overflowed the fraction's Int32.
        let long = "2026-11-21T10:00:00." + String(repeating: "8", count: 57) + "123Z"
        #expect(Timestamp.parse(long) == Timestamp.parse("2026-11-21T10:00:00.888888888Z"))
        #expect(Timestamp.parse("2026-11-21T10:00:00.500000000000Z") == Timestamp.parse("2026-11-21T10:00:00.5Z"))
        #expect(Timestamp.parse("2026-11-21T10:00:00.5000000000x0Z") == nil)
        #expect(Timestamp.parse("2026-11-21T10:00:00.Z") == nil)
    }

    @Test func timestampsRoundTrip() {
        for seconds in [0.0, 1_700_000_000.5, 1_999_999_999.999, 951_782_400.001] {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(Timestamp.parse(Timestamp.format(date)) == Timestamp.truncated(date))
        }
        #expect(Timestamp.format(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00.000Z")
        #expect(Timestamp.format(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
        #expect(Timestamp.format(Date(timeIntervalSince1970: 1_700_000_000.5)) == "2023-11-14T22:13:20.500Z")
        #expect(Timestamp.format(Date(timeIntervalSince1970: -1.5)) == "1969-12-31T23:59:58.500Z")
        #expect(Timestamp.format(Date(timeIntervalSince1970: -30_610_224_000.007)) == "0999-12-31T23:59:59.993Z")
    }

    @Test func stringEscapesDecodeAndBadOnesSayWhere() throws {
        #expect(try CassetteJSON.parse(#"["\"\\\/\b\f\n\r\t","\u00e9","\ud83d\ude00"]"#)
                == .array([.string("\"\\/\u{8}\u{c}\n\r\t"), .string("é"), .string("😀")]))
        #expect(throws: JSONSyntaxError.self) { try CassetteJSON.parse(#"["\ud83d"]"#) }
        #expect(throws: JSONSyntaxError.self) { try CassetteJSON.parse(#"["\u12"]"#) }
        let invalid = #expect(throws: JSONSyntaxError.self) { try CassetteJSON.parse(#"["ab\x"]"#) }
        #expect(invalid?.offset == 5)
        #expect(invalid?.reason.contains("invalid escape") == true)
    }
}

/// How the codec spells `body` in a cassette, as a JSON value, or `nil` for an empty body.
private func spelling(of body: CassetteBody) -> CassetteJSON? {
    var writer = JSONWriter(style: .compact)
    var holder = writer.beginObject(level: 0)
    BodyFormat.write(body, as: "body", in: &holder, of: &writer)
    writer.end(holder)
    return (try? CassetteJSON.parse(writer.output.data))?["body"]
}
