// libyaml's module, as Yams builds it. Yams declares it as a target of its own, not a product, so Package.swift cannot
// name it; it is the libyaml that Yams links, so every binary holds one libyaml.
internal import CYaml

/// The node budget and nesting limit of ``YAMLDocument``, checked over libyaml's events before the document is
/// composed.
///
/// Counting has to come first: composing is not linear in the document's size once aliases are in play. Yams
/// checks every mapping's keys for duplicates by hashing them, and a key that is an alias (`? *a8 : x`, or
/// `{*a8: x}`) hashes the whole tree its anchor stands for, which for a few lines of nested aliases is 10⁹ nodes.
/// A reader that builds a tree of its own composes straight from the events instead
/// (``YAMLDocument/compose(_:into:limits:)``, which keeps the same count as it goes); Yams gives no way to make the
/// `Mark`s its nodes carry, so a reader of Yams' `Node`s takes both passes.
///
/// One pass: a scalar is one node, a collection one node plus its contents, and an alias as many nodes as its
/// anchor's subtree, whose size is known once the anchor's node has ended (an alias to an anchor that has not ended
/// is undefined, and composing refuses it). The count is of the whole stream, with aliases expanded, as a reader that
/// walks the tree sees it; it bounds Yams' key hashing too, since a key's hash walks only nodes counted here.
enum YAMLEventBudget {
    /// Throws at the first node that takes the document past `budget` nodes or `maximumDepth` levels. A syntax
    /// error ends the pass without a word: composing the text reports it, with libyaml's context.
    static func check(_ text: String, budget: Int, maximumDepth: Int) throws(YAMLDocumentError) {
        var text = text
        let problem = text.withUTF8 { bytes -> YAMLDocumentError? in
            var parser = yaml_parser_t()
            guard yaml_parser_initialize(&parser) == 1 else { return nil }
            defer { yaml_parser_delete(&parser) }
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            yaml_parser_set_input_string(&parser, bytes.baseAddress, bytes.count)
            var tally = Tally(budget: budget, maximumDepth: maximumDepth)
            var event = yaml_event_t()
            while yaml_parser_parse(&parser, &event) == 1 {
                defer { yaml_event_delete(&event) }
                if event.type == YAML_STREAM_END_EVENT { return nil }
                if let problem = tally.take(event) { return problem }
            }
            return nil
        }
        if let problem { throw problem }
    }

    /// The running count: nodes so far, and for each open collection the count when it began, so that its size is
    /// known when it ends. ``YAMLTreeComposer`` keeps the same count while it composes.
    struct Tally {
        let budget: Int
        let maximumDepth: Int
        var nodes = 0
        var open: [(startCount: Int, anchor: String?)] = []
        var anchorSizes: [String: Int] = [:]

        init(budget: Int, maximumDepth: Int) {
            self.budget = budget
            self.maximumDepth = maximumDepth
        }

        mutating func take(_ event: yaml_event_t) -> YAMLDocumentError? {
            switch event.type {
            case YAML_DOCUMENT_START_EVENT:
                anchorSizes.removeAll()   // an anchor names a node of its own document only
                return nil
            case YAML_SCALAR_EVENT:
                if let anchor = Self.string(event.data.scalar.anchor) { anchorSizes[anchor] = 1 }
                return add(1, at: event)
            case YAML_ALIAS_EVENT:
                let size = Self.string(event.data.alias.anchor).flatMap { anchorSizes[$0] } ?? 1
                return add(size, at: event)
            case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                guard open.count < maximumDepth else {
                    return YAMLDocumentError(at: event, message: "mappings and sequences nest deeper than \(maximumDepth) levels")
                }
                let anchor = Self.string(event.type == YAML_SEQUENCE_START_EVENT
                                         ? event.data.sequence_start.anchor : event.data.mapping_start.anchor)
                open.append((nodes, anchor))
                return add(1, at: event)
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                guard let collection = open.popLast() else { return nil }
                if let anchor = collection.anchor { anchorSizes[anchor] = nodes - collection.startCount }
                return nil
            default:
                return nil
            }
        }

        /// Counts `size` more nodes; both are at most the budget, so the sum cannot overflow.
        private mutating func add(_ size: Int, at event: yaml_event_t) -> YAMLDocumentError? {
            nodes += size
            guard nodes <= budget else {
                return YAMLDocumentError(at: event, message: "aliases expand the document past \(budget) nodes, the budget "
                                         + "for a YAML document of this size (an alias bomb?)")
            }
            return nil
        }

        private static func string(_ pointer: UnsafeMutablePointer<UInt8>?) -> String? {
            pointer.map { String(cString: $0) }
        }
    }
}

extension YAMLDocumentError {
    /// At the event's start, 1-based as Yams reports its marks.
    init(at event: yaml_event_t, message: String) {
        self.init(line: Int(event.start_mark.line) + 1, column: Int(event.start_mark.column) + 1, message: message)
    }
}
