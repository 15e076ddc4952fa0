import TapedeckCore

extension Redaction {
    /// Whether redacting the query of `url` could find or change anything: some parameter's name is secret, is a
    /// GraphQL GET's `variables` or `extensions`, or must be decoded before it can be told (it holds `%`, `+` or a
    /// byte that is not ASCII); or a filter redacts query parameters. Most replayed URLs hold none of these, and
    /// this tells so in one pass over the bytes, without building the decoded pairs that
    /// ``redactURL(_:)`` and ``secretValues(of:responseHeaders:)`` would otherwise build for every request.
    ///
    /// It errs only towards `true`: items are split at `&` and also at every `?` after the first, and an item
    /// without `=` is judged as a name, so each name the query's own parsing finds is judged whole or in pieces
    /// that still hold any secret fragment it holds.
    func queryMayNeedRedaction(_ url: String) -> Bool {
        guard Self.contains(url, byte: "?") else { return false }
        if filters.contains(where: { if case .queryParameter = $0.kind { true } else { false } }) { return true }
        guard redactsDefaults || filters.contains(where: { if case .jsonPath = $0.kind { true } else { false } }) else {
            return false
        }
        if let answer = url.utf8.withContiguousStorageIfAvailable({ queryMayNeedRedaction($0) }) { return answer }
        var copy = url
        return copy.withUTF8 { queryMayNeedRedaction($0) }
    }

    private func queryMayNeedRedaction(_ url: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let mark = url.firstIndex(of: UInt8(ascii: "?")) else { return false }
        let end = url[mark...].firstIndex(of: UInt8(ascii: "#")) ?? url.endIndex
        var start = mark + 1
        while start <= end {
            var stop = start
            while stop < end, url[stop] != UInt8(ascii: "&"), url[stop] != UInt8(ascii: "?") { stop += 1 }
            var nameEnd = start
            while nameEnd < stop, url[nameEnd] != UInt8(ascii: "=") { nameEnd += 1 }
            if nameMayNeedRedaction(UnsafeBufferPointer(rebasing: url[start..<nameEnd])) { return true }
            start = stop + 1
        }
        return false
    }

    private func nameMayNeedRedaction(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !name.isEmpty else { return false }
        if name.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") || $0 >= 0x80 }) { return true }
        if Self.equalIgnoringCase(name, "variables") || Self.equalIgnoringCase(name, "extensions") { return true }
        return redactsDefaults && sensitiveParameters.match(bytes: name) != .none
    }

    private static func equalIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ lowercase: StaticString) -> Bool {
        guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
        let expected = UnsafeBufferPointer(start: lowercase.utf8Start, count: lowercase.utf8CodeUnitCount)
        return zip(bytes, expected).allSatisfy { $0.asciiLowercased == $1 }
    }
}
