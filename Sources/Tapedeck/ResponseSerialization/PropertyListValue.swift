import Foundation

/// A property-list value that is `Sendable` and `Hashable`: what ``PropertyListResponseSerializer`` produces.
///
/// `JSONValue` is not reused because property lists differ from JSON: they have dates and raw data, keep
/// integers apart from reals, and have no `null`.
///
/// ```swift
/// let value: PropertyListValue = ["name": "tapedeck", "count": 3, "ratio": 0.5, "on": true]
/// value["count"]?.intValue  // 3
/// ```
public enum PropertyListValue: Sendable, Hashable {
    /// `<string>`
    case string(String)
    /// `<integer>`
    case integer(Int)
    /// `<real>` (and integers too large for `Int`)
    case real(Double)
    /// `<true/>` / `<false/>`
    case bool(Bool)
    /// `<date>`
    case date(Date)
    /// `<data>`
    case data(Data)
    /// `<array>`
    case array([PropertyListValue])
    /// `<dict>`
    case dictionary([String: PropertyListValue])
}

extension PropertyListValue {
    /// The string, when this is `.string`.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The integer, when this is `.integer`.
    public var intValue: Int? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// The number, when this is `.real` or `.integer`.
    public var doubleValue: Double? {
        switch self {
        case .real(let value): return value
        case .integer(let value): return Double(value)
        default: return nil
        }
    }

    /// The boolean, when this is `.bool`.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The date, when this is `.date`.
    public var dateValue: Date? {
        if case .date(let value) = self { return value }
        return nil
    }

    /// The bytes, when this is `.data`.
    public var dataValue: Data? {
        if case .data(let value) = self { return value }
        return nil
    }

    /// The elements, when this is `.array`.
    public var arrayValue: [PropertyListValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The entries, when this is `.dictionary`.
    public var dictionaryValue: [String: PropertyListValue]? {
        if case .dictionary(let value) = self { return value }
        return nil
    }

    /// The entry named `key` of a dictionary.
    public subscript(key: String) -> PropertyListValue? {
        dictionaryValue?[key]
    }

    /// The element at `index` of an array.
    public subscript(index: Int) -> PropertyListValue? {
        guard let array = arrayValue, array.indices.contains(index) else { return nil }
        return array[index]
    }
}

extension PropertyListValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// `.string(value)`
    public init(stringLiteral value: String) { self = .string(value) }
    /// `.integer(value)`
    public init(integerLiteral value: Int) { self = .integer(value) }
    /// `.real(value)`
    public init(floatLiteral value: Double) { self = .real(value) }
    /// `.bool(value)`
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// `.array(elements)`
    public init(arrayLiteral elements: PropertyListValue...) { self = .array(elements) }
    /// `.dictionary(...)`; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, PropertyListValue)...) {
        self = .dictionary(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension PropertyListValue {
    /// Converts what `PropertyListSerialization` produces (strings, numbers, booleans, dates, data, arrays and
    /// dictionaries with string keys). Returns `nil` for anything else.
    public init?(foundationObject object: Any) {
        switch object {
        case let value as String:
            self = .string(value)
        case let value as Data:
            self = .data(value)
        case let value as Date:
            self = .date(value)
        case let number as NSNumber:
            self = PropertyListValue(number: number)
        case let array as [Any]:
            var values: [PropertyListValue] = []
            values.reserveCapacity(array.count)
            for element in array {
                guard let value = PropertyListValue(foundationObject: element) else { return nil }
                values.append(value)
            }
            self = .array(values)
        case let dictionary as [AnyHashable: Any]:
            var entries: [String: PropertyListValue] = [:]
            for (key, element) in dictionary {
                guard let key = key.base as? String, let value = PropertyListValue(foundationObject: element) else {
                    return nil
                }
                entries[key] = value
            }
            self = .dictionary(entries)
        default:
            return nil
        }
    }

    /// The value as Foundation objects, for `PropertyListSerialization`.
    public var foundationObject: Any {
        switch self {
        case .string(let value): return value
        case .integer(let value): return NSNumber(value: value)
        case .real(let value): return NSNumber(value: value)
        case .bool(let value): return NSNumber(value: value)
        case .date(let value): return value
        case .data(let value): return value
        case .array(let value): return value.map(\.foundationObject)
        case .dictionary(let value): return value.mapValues(\.foundationObject)
        }
    }

    private init(number: NSNumber) {
        // Booleans are the only numbers PropertyListSerialization makes with ObjC type 'c' (char).
        switch String(cString: number.objCType) {
        case "c", "B":
            self = .bool(number.boolValue)
        case "f", "d":
            self = .real(number.doubleValue)
        default:
            if let integer = Int(exactly: number.int64Value), number.compare(NSNumber(value: integer)) == .orderedSame {
                self = .integer(integer)
            } else {
                self = .real(number.doubleValue)
            }
        }
    }
}
