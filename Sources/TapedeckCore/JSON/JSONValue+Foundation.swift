import Foundation

extension JSONValue {
    /// Converts what `JSONSerialization` produces (`NSDictionary`, `NSArray`, `NSNumber`, `NSString`, `NSNull`).
    /// Returns `nil` for anything else.
    public init?(foundationObject object: Any) {
        switch object {
        case is NSNull:
            self = .null
        case let number as NSNumber:
            // JSONSerialization makes true/false as NSNumbers of ObjC type 'c' (char), and no other numbers so.
            if String(cString: number.objCType) == "c" {
                self = .bool(number.boolValue)
            } else {
                self = .number(number.doubleValue)
            }
        case let string as String:
            self = .string(string)
        case let array as [Any]:
            var values: [JSONValue] = []
            values.reserveCapacity(array.count)
            for element in array {
                guard let value = JSONValue(foundationObject: element) else { return nil }
                values.append(value)
            }
            self = .array(values)
        case let dictionary as [String: Any]:
            var members: [String: JSONValue] = [:]
            for (key, element) in dictionary {
                guard let value = JSONValue(foundationObject: element) else { return nil }
                members[key] = value
            }
            self = .object(members)
        default:
            return nil
        }
    }

    /// The value as Foundation objects, for `JSONSerialization` and `PropertyListSerialization`.
    public var foundationObject: Any {
        switch self {
        case .null: return NSNull()
        case .bool(let value): return NSNumber(value: value)
        case .number(let value):
            if let integer = intValue { return NSNumber(value: integer) }
            return NSNumber(value: value)
        case .string(let value): return value
        case .array(let value): return value.map(\.foundationObject)
        case .object(let value): return value.mapValues(\.foundationObject)
        }
    }
}
