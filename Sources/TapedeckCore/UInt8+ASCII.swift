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
}
