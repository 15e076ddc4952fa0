import Foundation

/// Tries several serializers in order and returns the first value one produces: AFNetworking's
/// `AFCompoundResponseSerializer`.
///
/// A serializer "produces a value" when it does not throw and does not return `nil` (so a JSON serializer that
/// meets an empty body does not win). When none does, the compound falls back to ``HTTPResponseSerializer``
/// behaviour with its own ``validation``: the raw body is returned (with ``Output/serializerIndex`` `nil`), or that
/// validation's error is thrown. The errors of the serializers tried are not reported, as in AFNetworking.
///
/// ```swift
/// let serializer = CompoundResponseSerializer([JSONResponseSerializer(), XMLParserResponseSerializer()])
/// let output = try serializer.serialize(head: head, data: body)
/// if let json = output.value(as: JSONValue.self) { … }
/// else if let xml = output.value(as: ParsedXMLElement.self) { … }
/// ```
public struct CompoundResponseSerializer: ValidatingResponseSerializer {
    /// What the compound produced, and which serializer produced it.
    public struct Output: Sendable {
        /// The index in ``CompoundResponseSerializer/serializers`` of the serializer that produced ``value``, or
        /// `nil` when none did and ``value`` is the raw body (`Data?`).
        public var serializerIndex: Int?
        /// The winning serializer's output, which is never `nil`; on fallback, the body as `Data?` (`nil` when
        /// there was none). An optional output keeps its `Optional` wrapping here; ``value(as:)`` and `as?` casts
        /// see through it.
        public var value: any Sendable

        /// Creates an output.
        public init(serializerIndex: Int?, value: any Sendable) {
            self.serializerIndex = serializerIndex
            self.value = value
        }

        /// ``value`` as a `T`, or `nil` when it is something else.
        public func value<T>(as type: T.Type = T.self) -> T? {
            value as? T
        }
    }

    /// The serializers to try, in order.
    public var serializers: [any ResponseSerializer]
    /// The rules of the fallback when no serializer produces a value; default 2xx, any content type.
    public var validation: ResponseValidation

    /// Creates a compound of `serializers`.
    public init(_ serializers: [any ResponseSerializer], validation: ResponseValidation = ResponseValidation()) {
        self.serializers = serializers
        self.validation = validation
    }

    /// Returns the first value a serializer produces, else validates with ``validation`` and returns the body.
    public func serialize(head: HTTPResponseHead?, data: Data?) throws -> Output {
        for (index, serializer) in serializers.enumerated() {
            guard let produced = try? serializer.serialize(head: head, data: data), !Self.isNil(produced) else {
                continue
            }
            return Output(serializerIndex: index, value: produced)
        }
        try validation.validate(head: head, data: data)
        return Output(serializerIndex: nil, value: data)
    }

    /// Whether `value` is an empty optional (at any depth of nesting).
    private static func isNil(_ value: any Sendable) -> Bool {
        (value as? any OptionalSerializedValue)?.isNilAtAnyDepth ?? false
    }
}

/// Lets the compound see that an output erased to `any Sendable` is an empty `Optional`.
private protocol OptionalSerializedValue {
    var isNilAtAnyDepth: Bool { get }
}

extension Optional: OptionalSerializedValue {
    fileprivate var isNilAtAnyDepth: Bool {
        guard case .some(let wrapped) = self else { return true }
        return (wrapped as? any OptionalSerializedValue)?.isNilAtAnyDepth ?? false
    }
}
