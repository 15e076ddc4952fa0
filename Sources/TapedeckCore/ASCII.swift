extension UInt8 {
    /// Whether the byte is an ASCII digit, `0`–`9` (RFC 5234's DIGIT).
    ///
    /// ```swift
    /// "2026".utf8.allSatisfy(\.isASCIIDigit)   // true
    /// ```
    package var isASCIIDigit: Bool { (0x30...0x39).contains(self) }

    /// Whether the byte is an ASCII letter, `A`–`Z` or `a`–`z` (RFC 5234's ALPHA).
    package var isASCIILetter: Bool { (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self) }

    /// Whether the byte is an ASCII letter or digit.
    package var isASCIIAlphanumeric: Bool { isASCIIDigit || isASCIILetter }

    /// The byte with an ASCII capital letter lowered; any other byte as it is.
    package var asciiLowercased: UInt8 { (0x41...0x5A).contains(self) ? self | 0x20 : self }
}

extension String {
    /// The string with its ASCII capital letters lowered and every other character as it is (`lowercased()` lowers
    /// all of Unicode, as header names, schemes and cookie attributes must not be): itself, without a copy, when it
    /// has no capital letter.
    ///
    /// ```swift
    /// "Digest".asciiLowercased   // "digest"
    /// ```
    package var asciiLowercased: String {
        guard utf8.contains(where: { (0x41...0x5A).contains($0) }) else { return self }
        return String(decoding: utf8.map(\.asciiLowercased), as: UTF8.self)
    }
}
