/// AFNetworking's query-string encoding (`AFQueryStringFromParameters`, `AFQueryStringPairsFromKeyAndValue`,
/// `AFPercentEscapedStringFromString`) as pure functions.
///
/// Flattening rules:
/// - object members become `key=value`, nested objects `outer[inner]=value`, with keys sorted ascending at every
///   level so the output is deterministic;
/// - array elements become `key[]=element`, in order; empty arrays and objects contribute nothing;
/// - `null` becomes the bare key (`key`, no `=`);
/// - `true`/`false` become `1`/`0` (as `NSNumber` describes them), integral numbers are written without a
///   fractional part, other numbers in their shortest round-tripping form;
/// - a top-level `null` contributes nothing; another top-level value that is not an object is flattened under an
///   empty key.
///
/// Keys and values are then percent-escaped (brackets included, so `a[b]=c` is sent as `a%5Bb%5D=c`, as
/// AFNetworking 3 and 4 do) and the pairs joined with `&`.
///
/// ```swift
/// QueryStringEncoding.queryString(from: ["key": "value", "key1": "value&"])  // "key=value&key1=value%26"
/// QueryStringEncoding.queryString(from: ["a": ["b": "c"], "l": [1, 2]])     // "a%5Bb%5D=c&l%5B%5D=1&l%5B%5D=2"
/// ```
public enum QueryStringEncoding {
    /// One flattened parameter before escaping: `value` is `nil` for `null`.
    public struct Pair: Hashable, Sendable {
        /// The field name, e.g. `user[name]` or `tags[]`.
        public var key: String
        /// The value as text, or `nil` for a bare key.
        public var value: String?

        /// Creates a pair.
        public init(key: String, value: String?) {
            self.key = key
            self.value = value
        }

        /// The escaped `key=value` (or bare `key`) form.
        public var percentEscaped: String {
            var bytes: [UInt8] = []
            append(to: &bytes)
            return String(decoding: bytes, as: UTF8.self)
        }

        /// Appends the escaped `key=value` (or bare `key`) form to `bytes`.
        func append(to bytes: inout [UInt8]) {
            QueryStringEncoding.appendEscaped(key, to: &bytes)
            guard let value else { return }
            bytes.append(UInt8(ascii: "="))
            QueryStringEncoding.appendEscaped(value, to: &bytes)
        }
    }

    /// The escaped, `&`-joined query string for `parameters` (without a leading `?`); empty when nothing is left
    /// after flattening.
    public static func queryString(from parameters: JSONValue) -> String {
        // Written into one buffer: this runs for every request with parameters.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64)
        for (index, pair) in pairs(from: parameters).enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: "&")) }
            pair.append(to: &bytes)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The flattened, unescaped pairs for `parameters`, in output order. Multipart forms use these as their fields.
    public static func pairs(from parameters: JSONValue) -> [Pair] {
        var result: [Pair] = []
        flatten(parameters, key: nil, into: &result)
        return result
    }

    /// `string` percent-escaped for a query key or value: everything but ASCII letters, digits and `-._~/?` is
    /// escaped as UTF-8 bytes, so the RFC 3986 reserved characters are escaped except `?` and `/`
    /// (`URLQueryAllowed` minus `:#[]@!$&'()*+,;=`, as `AFPercentEscapedStringFromString`).
    ///
    /// ```swift
    /// QueryStringEncoding.percentEscaped(" /?&=[]")  // "%20/?%26%3D%5B%5D"
    /// ```
    public static func percentEscaped(_ string: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(string.utf8.count)
        appendEscaped(string, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func appendEscaped(_ string: String, to bytes: inout [UInt8]) {
        for byte in string.utf8 {
            if isAllowed(byte) {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            }
        }
    }

    /// The text AFNetworking's `description` gives a scalar parameter, or `nil` for `null` and collections.
    public static func text(of value: JSONValue) -> String? {
        switch value {
        case .null, .array, .object:
            return nil
        case .bool(let flag):
            return flag ? "1" : "0"
        case .number(let number):
            if let integer = value.intValue { return String(integer) }
            return number.description
        case .string(let string):
            return string
        }
    }

    private static func flatten(_ value: JSONValue, key: String?, into result: inout [Pair]) {
        switch value {
        case .object(let members):
            for memberKey in members.keys.sorted() {
                guard let member = members[memberKey] else { continue }
                flatten(member, key: key.map { "\($0)[\(memberKey)]" } ?? memberKey, into: &result)
            }
        case .array(let elements):
            for element in elements {
                flatten(element, key: "\(key ?? "")[]", into: &result)
            }
        case .null:
            guard let key else { return }
            result.append(Pair(key: key, value: nil))
        case .bool, .number, .string:
            result.append(Pair(key: key ?? "", value: text(of: value)))
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
            UInt8(ascii: "/"), UInt8(ascii: "?"):
            return true
        default:
            return false
        }
    }
}
