import Foundation
import TapedeckCore

/// Checks values against a compiled ``SchemaProgram``. With `collecting` on it gathers every violation (each with
/// its place in the value); off, it stops at the first, which is what `anyOf`, `oneOf` and `not` need to ask.
struct SchemaEvaluation {
    let program: SchemaProgram
    let collecting: Bool
    private(set) var violations: [SchemaViolation] = []

    /// The violations in a stable order (by place, then rule), whatever order object members were visited in.
    var orderedViolations: [SchemaViolation] {
        violations.sorted { ($0.instancePointer, $0.keyword, $0.message) < ($1.instancePointer, $1.keyword, $1.message) }
    }

    init(program: SchemaProgram, collecting: Bool) {
        self.program = program
        self.collecting = collecting
    }

    /// Whether `value` (at `pointer`) satisfies node `index`; violations are appended when collecting.
    mutating func check(_ value: JSONValue, against index: Int, at pointer: String) -> Bool {
        let node = program.nodes[index]
        if node.rejectsAll { return fail(pointer, "false", "no value is allowed here") }
        var valid = true
        if let reference = node.reference, !check(value, against: reference, at: pointer) {
            if !collecting { return false }
            valid = false
        }
        if !checkGeneric(node, value, pointer) {
            if !collecting { return false }
            valid = false
        }
        switch value {
        case .object(let members): valid = checkObject(node, members, pointer) && valid
        case .array(let elements): valid = checkArray(node, elements, pointer) && valid
        case .string(let text): valid = checkString(node, text, pointer) && valid
        case .number(let number): valid = checkNumber(node, number, pointer) && valid
        case .null, .bool: break
        }
        return valid
    }

    private mutating func checkGeneric(_ node: SchemaNode, _ value: JSONValue, _ pointer: String) -> Bool {
        var valid = true
        if let types = node.types, !types.admits(value), !(node.nullable && value == .null) {
            valid = fail(pointer, "type", "expected \(types.spelled), found \(value.kindName)")
            if !collecting { return false }
        }
        if let allowed = node.allowedValues, !allowed.contains(value) {
            valid = fail(pointer, "enum", "\(value.compactText) is not one of \(JSONValue.array(allowed).compactText)")
            if !collecting { return false }
        }
        if let constant = node.constant, constant != value {
            valid = fail(pointer, "const", "expected \(constant.compactText), found \(value.compactText)")
            if !collecting { return false }
        }
        for sub in node.allOf where !check(value, against: sub, at: pointer) {
            valid = false
            if !collecting { return false }
        }
        if !node.anyOf.isEmpty, !node.anyOf.contains(where: { matches(value, $0) }) {
            valid = fail(pointer, "anyOf", "matches none of the \(node.anyOf.count) schemas")
            if !collecting { return false }
        }
        if !node.oneOf.isEmpty {
            let matching = node.oneOf.filter { matches(value, $0) }.count
            if matching != 1 {
                valid = fail(pointer, "oneOf", "matches \(matching) of the \(node.oneOf.count) schemas; exactly one must match")
                if !collecting { return false }
            }
        }
        if let not = node.not, matches(value, not) {
            valid = fail(pointer, "not", "matches the schema it must not match")
        }
        return valid
    }

    private mutating func checkObject(_ node: SchemaNode, _ members: [String: JSONValue], _ pointer: String) -> Bool {
        var valid = true
        for name in node.required where members[name] == nil {
            valid = fail(pointer, "required", "the member \"\(name)\" is missing")
            if !collecting { return false }
        }
        if let minimum = node.minProperties, members.count < minimum {
            valid = fail(pointer, "minProperties", "has \(members.count) members, fewer than \(minimum)")
            if !collecting { return false }
        }
        if let maximum = node.maxProperties, members.count > maximum {
            valid = fail(pointer, "maxProperties", "has \(members.count) members, more than \(maximum)")
            if !collecting { return false }
        }
        let needsEveryMember = !node.patternProperties.isEmpty || !(node.additionalProperties.isAllowed)
        if needsEveryMember {
            for (name, member) in members {
                let memberPointer = JSONPointer.appending(name, to: pointer)
                var named = false
                if let sub = node.properties[name] {
                    named = true
                    if !check(member, against: sub, at: memberPointer) { valid = false; if !collecting { return false } }
                }
                for (pattern, sub) in node.patternProperties where pattern.matches(name) {
                    named = true
                    if !check(member, against: sub, at: memberPointer) { valid = false; if !collecting { return false } }
                }
                guard !named else { continue }
                switch node.additionalProperties {
                case .allowed: break
                case .forbidden:
                    valid = fail(memberPointer, "additionalProperties", "the member \"\(name)\" is not allowed")
                    if !collecting { return false }
                case .schema(let sub):
                    if !check(member, against: sub, at: memberPointer) { valid = false; if !collecting { return false } }
                }
            }
        } else {
            for (name, sub) in node.properties {
                guard let member = members[name] else { continue }
                if !check(member, against: sub, at: JSONPointer.appending(name, to: pointer)) {
                    valid = false
                    if !collecting { return false }
                }
            }
        }
        return valid
    }

    private mutating func checkArray(_ node: SchemaNode, _ elements: [JSONValue], _ pointer: String) -> Bool {
        var valid = true
        if let minimum = node.minItems, elements.count < minimum {
            valid = fail(pointer, "minItems", "has \(elements.count) items, fewer than \(minimum)")
            if !collecting { return false }
        }
        if let maximum = node.maxItems, elements.count > maximum {
            valid = fail(pointer, "maxItems", "has \(elements.count) items, more than \(maximum)")
            if !collecting { return false }
        }
        for (position, element) in elements.enumerated() {
            let sub = position < node.prefixItems.count ? node.prefixItems[position] : node.items
            guard let sub else { continue }
            if !check(element, against: sub, at: pointer + "/\(position)") {
                valid = false
                if !collecting { return false }
            }
        }
        if node.uniqueItems, Set(elements).count != elements.count {
            valid = fail(pointer, "uniqueItems", "holds the same item more than once")
        }
        return valid
    }

    private mutating func checkString(_ node: SchemaNode, _ text: String, _ pointer: String) -> Bool {
        var valid = true
        if node.minLength != nil || node.maxLength != nil {
            let length = text.unicodeScalars.count
            if let minimum = node.minLength, length < minimum {
                valid = fail(pointer, "minLength", "is \(length) characters long, shorter than \(minimum)")
                if !collecting { return false }
            }
            if let maximum = node.maxLength, length > maximum {
                valid = fail(pointer, "maxLength", "is \(length) characters long, longer than \(maximum)")
                if !collecting { return false }
            }
        }
        if let pattern = node.pattern {
            switch pattern.search(text) {
            case .found: break
            case .notFound:
                valid = fail(pointer, "pattern", "\(JSONValue.string(text).compactText) does not match /\(pattern.source)/")
            case .gaveUp(let reason):
                valid = fail(pointer, "pattern", "\(JSONValue.string(text).compactText) was not matched: /\(pattern.source)/ \(reason)")
            }
        }
        return valid
    }

    private mutating func checkNumber(_ node: SchemaNode, _ number: Double, _ pointer: String) -> Bool {
        var valid = true
        var shown: String { JSONValue.number(number).compactText }
        if let bound = node.minimum, number < bound {
            valid = fail(pointer, "minimum", "\(shown) is less than \(JSONValue.number(bound).compactText)")
            if !collecting { return false }
        }
        if let bound = node.maximum, number > bound {
            valid = fail(pointer, "maximum", "\(shown) is greater than \(JSONValue.number(bound).compactText)")
            if !collecting { return false }
        }
        if let bound = node.exclusiveMinimum, number <= bound {
            valid = fail(pointer, "exclusiveMinimum", "\(shown) is not greater than \(JSONValue.number(bound).compactText)")
            if !collecting { return false }
        }
        if let bound = node.exclusiveMaximum, number >= bound {
            valid = fail(pointer, "exclusiveMaximum", "\(shown) is not less than \(JSONValue.number(bound).compactText)")
            if !collecting { return false }
        }
        if let divisor = node.multipleOf, !Self.isMultiple(number, of: divisor) {
            valid = fail(pointer, "multipleOf", "\(shown) is not a multiple of \(JSONValue.number(divisor).compactText)")
        }
        return valid
    }

    /// Exact for integers; for fractions, whether the quotient is whole within floating-point rounding, so
    /// `19.99` is a multiple of `0.01` (Python's `jsonschema` demands an exactly whole quotient and says it is not).
    static func isMultiple(_ number: Double, of divisor: Double) -> Bool {
        if number.rounded(.towardZero) == number, divisor.rounded(.towardZero) == divisor {
            return number.truncatingRemainder(dividingBy: divisor) == 0
        }
        let quotient = number / divisor
        guard quotient.isFinite else { return false }
        return abs(quotient - quotient.rounded()) <= max(1, abs(quotient)) * 1e-9
    }

    /// Whether `value` satisfies node `index`, without recording anything.
    private func matches(_ value: JSONValue, _ index: Int) -> Bool {
        var probe = SchemaEvaluation(program: program, collecting: false)
        return probe.check(value, against: index, at: "")
    }

    private mutating func fail(_ pointer: String, _ keyword: String, _ message: String) -> Bool {
        if collecting { violations.append(SchemaViolation(instancePointer: pointer, keyword: keyword, message: message)) }
        return false
    }
}

extension AdditionalMembers {
    var isAllowed: Bool {
        if case .allowed = self { return true }
        return false
    }
}
