import Foundation
import Tapedeck
import Testing

@Suite struct QueryStringEncodingTests {
    @Test func joinsPairsAndEscapesAmpersandsInValues() {
        #expect(QueryStringEncoding.queryString(from: ["key": "value", "key1": "value&"]) == "key=value&key1=value%26")
    }

    @Test func escapesReservedCharactersButQuestionMarkAndSlash() {
        #expect(
            QueryStringEncoding.percentEscaped(":#[]@!$&'()*+,;=?/")
                == "%3A%23%5B%5D%40%21%24%26%27%28%29%2A%2B%2C%3B%3D?/")
        #expect(
            QueryStringEncoding.queryString(from: ["key": " :#[]@!$&'()*+,;=/?"])
                == "key=%20%3A%23%5B%5D%40%21%24%26%27%28%29%2A%2B%2C%3B%3D/?")
    }

    @Test func escapesAlreadyEscapedText() {
        #expect(
            QueryStringEncoding.queryString(from: ["key": "%20%21%22%23%24%25%26%27%28%29%2A%2B%2C%2F"])
                == "key=%2520%2521%2522%2523%2524%2525%2526%2527%2528%2529%252A%252B%252C%252F")
    }

    @Test func leavesUnreservedCharactersAlone() {
        #expect(QueryStringEncoding.percentEscaped("AZaz09-._~") == "AZaz09-._~")
    }

    @Test func escapesUnicodeAsUTF8() {
        #expect(QueryStringEncoding.percentEscaped("café") == "caf%C3%A9")
        #expect(QueryStringEncoding.percentEscaped("日本") == "%E6%97%A5%E6%9C%AC")
    }

    @Test func escapesEmojiSequencesAcrossAFNetworkingsBatchBoundary() {
        var parameter = "!"
        while parameter.utf16.count < 50 {
            parameter += "👴🏿👷🏻👮🏽"
        }
        let group = "%F0%9F%91%B4%F0%9F%8F%BF%F0%9F%91%B7%F0%9F%8F%BB%F0%9F%91%AE%F0%9F%8F%BD"
        #expect(
            QueryStringEncoding.queryString(from: ["test": .string(parameter)])
                == "test=%21" + String(repeating: group, count: 5))
    }

    @Test func nestsObjectsWithBracketedKeys() {
        #expect(QueryStringEncoding.queryString(from: ["key": ["nested": "value"]]) == "key%5Bnested%5D=value")
        #expect(
            QueryStringEncoding.pairs(from: ["a": ["b": ["c": "d"]]])
                == [QueryStringEncoding.Pair(key: "a[b][c]", value: "d")])
    }

    @Test func flattensArraysWithEmptyBrackets() {
        #expect(QueryStringEncoding.queryString(from: ["key": [1, 2, 3]]) == "key%5B%5D=1&key%5B%5D=2&key%5B%5D=3")
        #expect(
            QueryStringEncoding.pairs(from: ["a": [["b": 1], ["b": 2]]])
                == [.init(key: "a[][b]", value: "1"), .init(key: "a[][b]", value: "2")])
    }

    @Test func writesNullAsABareKey() {
        #expect(QueryStringEncoding.queryString(from: ["key": nil, "other": "value"]) == "key&other=value")
        #expect(QueryStringEncoding.queryString(from: ["a": ["b": nil]]) == "a%5Bb%5D")
    }

    @Test func sortsKeysAscendingAtEveryLevel() {
        #expect(QueryStringEncoding.queryString(from: ["b": 1, "a": 2, "C": 3, "a1": 4]) == "C=3&a=2&a1=4&b=1")
        #expect(
            QueryStringEncoding.pairs(from: ["z": ["y": 1, "x": 2]]).map(\.key) == ["z[x]", "z[y]"])
    }

    @Test func describesScalarsAsNSNumberDoes() {
        #expect(
            QueryStringEncoding.queryString(from: ["t": true, "f": false, "i": 3, "n": -12, "d": 2.5, "z": 0])
                == "d=2.5&f=0&i=3&n=-12&t=1&z=0")
    }

    @Test func emptyCollectionsContributeNothing() {
        #expect(QueryStringEncoding.queryString(from: [:]) == "")
        #expect(QueryStringEncoding.queryString(from: ["a": [], "b": [:], "c": "d"]) == "c=d")
        #expect(QueryStringEncoding.queryString(from: nil) == "")
    }

    @Test func flattensTopLevelArraysUnderAnEmptyKey() {
        #expect(QueryStringEncoding.queryString(from: ["a", "b"]) == "%5B%5D=a&%5B%5D=b")
    }
}
