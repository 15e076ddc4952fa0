import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TapedeckCore
import TapedeckSession

/// What a configuration made by `URLSessionConfiguration.tapedeck(transport:base:cache:)` sends its requests
/// through: the transport and the settings FoundationNetworking does not show a custom protocol, and the
/// ``TransportURLProtocol`` subclass listed first in the configuration's `protocolClasses`.
///
/// Foundation makes protocol instances itself from the class, so an instance finds its binding from its task's
/// session (whose configuration carries it) or, where that session cannot be seen, from its class. The binding lives
/// as long as something that can start a request through it: the configuration keeps it in its
/// `connectionProxyDictionary` (which FoundationNetworking copies with the configuration, into every session made
/// from it, and never reads), a running task keeps its session, and a transfer keeps the transport until it ends.
/// When the last of them goes, the binding is released with its transport, and its subclass is free for the next
/// binding: the number of subclasses is the most bindings ever alive at once, however many are made.
final class TransportBinding: @unchecked Sendable {
    // URLSessionConfiguration is not Sendable; the binding's copy is only read.
    let transport: any HTTPTransport
    /// Fields added to every request that lacks them (the base configuration's `httpAdditionalHeaders`).
    let additionalHeaders: [String: String]
    /// The idle timeout of a request whose `timeoutInterval` is still the default 60 s.
    let defaultTimeout: TimeInterval?
    let cache: HTTPCache?
    /// Where the transport's replayed answers announce the recording's clock, shared by the binding's requests.
    let recordedTimeListener = RecordedTime.Listener()
    /// The configuration whose cookie and credential storage apply when the task's session cannot be found.
    let configuration: URLSessionConfiguration?
    /// The subclass bound to this binding while it lives.
    let protocolClass: TransportURLProtocol.Type

    /// The key of the binding in a configuration's `connectionProxyDictionary`.
    static let key = "TapedeckTransportBinding"

    /// Binds `transport` to a free subclass (a new one when none is free).
    init(
        transport: any HTTPTransport, additionalHeaders: [String: String], defaultTimeout: TimeInterval?,
        cache: HTTPCache?, configuration: URLSessionConfiguration?
    ) {
        self.transport = transport
        self.additionalHeaders = additionalHeaders
        self.defaultTimeout = defaultTimeout
        self.cache = cache
        // A copy without another binding, which would otherwise live as long as this one.
        self.configuration = configuration.map { configuration in
            let copy = configuration.copy() as! URLSessionConfiguration
            copy.connectionProxyDictionary?[Self.key] = nil
            return copy
        }
        protocolClass = BindingSlots.claim()
        BindingSlots.occupy(protocolClass, with: self)
    }

    deinit { BindingSlots.free(protocolClass) }

    /// Puts the binding in `configuration`: its subclass first in `protocolClasses`, itself in
    /// `connectionProxyDictionary` (replacing the binding a copied configuration carried).
    func install(in configuration: URLSessionConfiguration) {
        configuration.protocolClasses = [protocolClass] + (configuration.protocolClasses ?? [])
        var carried = configuration.connectionProxyDictionary ?? [:]
        carried[Self.key] = self
        configuration.connectionProxyDictionary = carried
    }

    /// The binding `configuration` carries, if any.
    static func carried(by configuration: URLSessionConfiguration) -> TransportBinding? {
        configuration.connectionProxyDictionary?[key] as? TransportBinding
    }

    /// The binding whose subclass `protocolClass` is, while it lives.
    static func bound(to protocolClass: AnyClass) -> TransportBinding? {
        BindingSlots.binding(of: protocolClass)
    }
}

/// The bound subclasses of ``TransportURLProtocol``: each is held by at most one live binding (weakly: the binding
/// belongs to the configurations and sessions that carry it) or is free for the next binding.
enum BindingSlots {
    private struct Table {
        var occupied: [ObjectIdentifier: WeakBinding] = [:]
        var free: [TransportURLProtocol.Type] = []
        var made = 0
    }

    private struct WeakBinding {
        weak var binding: TransportBinding?
    }

    private static let table = Locked(Table())

    /// How many subclasses were made so far: the most bindings alive at once.
    static var classCount: Int { table.withLock { $0.made } }

    /// A free subclass, or a new one (`free` returns it when its binding is released).
    fileprivate static func claim() -> TransportURLProtocol.Type {
        table.withLock { table in
            if let reused = table.free.popLast() { return reused }
            table.made += 1
            return slotClass(table.made)
        }
    }

    fileprivate static func occupy(_ protocolClass: TransportURLProtocol.Type, with binding: TransportBinding) {
        table.withLock { $0.occupied[ObjectIdentifier(protocolClass)] = WeakBinding(binding: binding) }
    }

    fileprivate static func free(_ protocolClass: TransportURLProtocol.Type) {
        table.withLock { table in
            table.occupied[ObjectIdentifier(protocolClass)] = nil
            table.free.append(protocolClass)
        }
    }

    fileprivate static func binding(of protocolClass: AnyClass) -> TransportBinding? {
        // The strong reference taken here is released by the caller, outside the lock (a binding's deinit takes it).
        table.withLock { $0.occupied[ObjectIdentifier(protocolClass)]?.binding }
    }
}

/// The type-level numbers that make one distinct subclass per slot.
private enum SlotEnd {}
private enum SlotBit0<Rest> {}
private enum SlotBit1<Rest> {}
private final class BoundTransportURLProtocol<Slot>: TransportURLProtocol {}

/// The subclass for `slot` (at least 1): its binary digits spelled as nested generic types.
private func slotClass(_ slot: Int) -> TransportURLProtocol.Type {
    func build<Rest>(_: Rest.Type, _ remaining: Int) -> TransportURLProtocol.Type {
        if remaining == 0 { return BoundTransportURLProtocol<Rest>.self }
        return remaining & 1 == 0 ? build(SlotBit0<Rest>.self, remaining >> 1) : build(SlotBit1<Rest>.self, remaining >> 1)
    }
    return build(SlotEnd.self, slot)
}
