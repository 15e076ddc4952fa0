import TapedeckCore

/// Makes a string that a regular expression of the common kind matches, for `pattern` keywords of schemas without
/// an example: literals, escapes (`\d`, `\w`, `\s`, `\.`), `.`, character classes (`[A-Z0-9_-]`, `[^,]`), groups
/// with alternatives (`(a|b)`, `(?:…)`) and quantifiers (`?`, `*`, `+`, `{n}`, `{n,}`, `{n,m}`). Anchors are
/// implied. Look-arounds, back-references, word boundaries and Unicode properties are not sampled (`nil`).
///
/// ```swift
/// var random = SplitMix64(seed: 1)
/// PatternSampler.sample("^[A-Z]{3}-[0-9]{4}$", using: &random)  // e.g. "QKD-3071"
/// ```
enum PatternSampler {
    /// A string `pattern` matches, or `nil` when the pattern uses what is not sampled.
    static func sample(_ pattern: String, using random: inout SplitMix64) -> String? {
        var parser = Parser(characters: Array(pattern))
        guard let node = parser.alternation(), parser.position == parser.characters.count else { return nil }
        var output = ""
        node.write(into: &output, random: &random)
        return output.utf8.count <= maximumLength ? output : nil
    }

    /// The longest string sampled, in UTF-8 bytes, and the largest `{n}` repetition.
    static let maximumLength = 10_000
    static let maximumRepetition = 1_000
    /// The deepest groups may nest.
    static let maximumGroupNesting = 32

    /// A parsed expression.
    indirect enum Node {
        case literal(Character)
        /// One of these characters.
        case choice([Character])
        case sequence([Node])
        case alternatives([Node])
        case repeated(Node, minimum: Int, maximum: Int)

        func write(into output: inout String, random: inout SplitMix64) {
            switch self {
            case .literal(let character): output.append(character)
            case .choice(let characters): output.append(characters[Int(random.next() % UInt64(characters.count))])
            case .sequence(let nodes): for node in nodes { node.write(into: &output, random: &random) }
            case .alternatives(let nodes): nodes[Int(random.next() % UInt64(nodes.count))].write(into: &output, random: &random)
            case .repeated(let node, let minimum, let maximum):
                let count = minimum + Int(random.next() % UInt64(maximum - minimum + 1))
                // Nested repetitions multiply: stop at `maximumLength` bytes (`sample` then gives up).
                for _ in 0..<count where output.utf8.count <= PatternSampler.maximumLength {
                    node.write(into: &output, random: &random)
                }
            }
        }
    }

    static let digits = Array("0123456789")
    static let wordCharacters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
    /// What `.` and negated classes draw from: letters and digits, so the result is readable.
    static let printable = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")

    private struct Parser {
        let characters: [Character]
        var position = 0
        private var groups = 0

        init(characters: [Character]) {
            var characters = characters
            if characters.first == "^" { characters.removeFirst() }
            if characters.last == "$", characters.dropLast().last != "\\" { characters.removeLast() }
            self.characters = characters
        }

        private var current: Character? { position < characters.count ? characters[position] : nil }

        mutating func alternation() -> Node? {
            var branches: [Node] = []
            repeat {
                if current == "|" { position += 1 }
                guard let branch = sequence() else { return nil }
                branches.append(branch)
            } while current == "|"
            return branches.count == 1 ? branches[0] : .alternatives(branches)
        }

        private mutating func sequence() -> Node? {
            var nodes: [Node] = []
            while let character = current, character != "|", character != ")" {
                guard let atom = atom(), let quantified = quantified(atom) else { return nil }
                nodes.append(quantified)
            }
            return .sequence(nodes)
        }

        private mutating func atom() -> Node? {
            guard let character = current else { return nil }
            position += 1
            switch character {
            case "(":
                if current == "?" {
                    guard position + 1 < characters.count, characters[position + 1] == ":" else { return nil }
                    position += 2
                }
                guard groups < PatternSampler.maximumGroupNesting else { return nil }
                groups += 1
                defer { groups -= 1 }
                guard let inner = alternation(), current == ")" else { return nil }
                position += 1
                return inner
            case "[": return characterClass()
            case ".": return .choice(PatternSampler.printable)
            case "\\": return escape(inClass: false).map { .choice($0) }
            case "*", "+", "?", "{", ")", "$", "^": return nil
            default: return .literal(character)
            }
        }

        /// The characters an escape stands for (after the backslash), or `nil` for one not sampled.
        private mutating func escape(inClass: Bool) -> [Character]? {
            guard let character = current else { return nil }
            position += 1
            switch character {
            case "d": return PatternSampler.digits
            case "w": return PatternSampler.wordCharacters
            case "s": return [" "]
            case "n": return ["\n"]
            case "t": return ["\t"]
            case "b" where inClass: return ["\u{8}"]
            case _ where character.isLetter || character.isNumber: return nil  // \b, \p{…}, \1, \D, …
            default: return [character]
            }
        }

        private mutating func characterClass() -> Node? {
            var negated = false
            if current == "^" {
                negated = true
                position += 1
            }
            var members: [Character] = []
            var first = true
            while let character = current, character != "]" || first {
                first = false
                position += 1
                var range: [Character]
                if character == "\\" {
                    guard let escaped = escape(inClass: true) else { return nil }
                    range = escaped
                } else {
                    range = [character]
                }
                if range.count == 1, current == "-", position + 1 < characters.count, characters[position + 1] != "]" {
                    position += 1
                    var upper = characters[position]
                    position += 1
                    if upper == "\\" {
                        guard let escaped = escape(inClass: true), escaped.count == 1 else { return nil }
                        upper = escaped[0]
                    }
                    guard let low = range[0].unicodeScalars.first?.value, let high = upper.unicodeScalars.first?.value, low <= high,
                          high - low < 0x3000 else { return nil }
                    range = (low...high).compactMap { Unicode.Scalar($0).map(Character.init) }
                }
                members += range
            }
            guard current == "]" else { return nil }
            position += 1
            if negated {
                let excluded = Set(members)
                let allowed = PatternSampler.printable.filter { !excluded.contains($0) }
                return allowed.isEmpty ? nil : .choice(allowed)
            }
            return members.isEmpty ? nil : .choice(members)
        }

        private mutating func quantified(_ atom: Node) -> Node? {
            var minimum = 1
            var maximum = 1
            switch current {
            case "?": (minimum, maximum) = (0, 1)
            case "*": (minimum, maximum) = (0, 3)
            case "+": (minimum, maximum) = (1, 3)
            case "{":
                guard let close = characters[position...].firstIndex(of: "}") else { return nil }
                let bounds = String(characters[(position + 1)..<close]).split(separator: ",", omittingEmptySubsequences: false)
                // A repetition of more than `maximumRepetition` is not sampled (the mock would grow without end).
                guard let low = Int(bounds.first ?? ""), bounds.count <= 2, (0...PatternSampler.maximumRepetition).contains(low) else {
                    return nil
                }
                minimum = low
                maximum = bounds.count == 1 ? low : (bounds[1].isEmpty ? low + 3 : Int(bounds[1]) ?? -1)
                guard maximum >= minimum else { return nil }
                position = close
            default: return atom
            }
            position += 1
            if current == "?" || current == "+" { position += 1 }  // lazy or possessive: the same strings
            return .repeated(atom, minimum: minimum, maximum: min(maximum, minimum + 8))
        }
    }
}
