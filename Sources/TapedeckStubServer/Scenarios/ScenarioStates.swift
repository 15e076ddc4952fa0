import TapedeckCore

/// A scenario condition on a stub: the state its scenario must be in for the stub to match, and the state the
/// scenario moves to when the stub answers. Every scenario starts in ``ScenarioStep/started``.
///
/// ```swift
/// server.add(Stub(RequestPattern(.post, "/cart"), response: .text("added", status: 201),
///                 scenario: ScenarioStep("cart", requiredState: ScenarioStep.started, newState: "has item")))
/// server.add(Stub(RequestPattern(.get, "/cart"), response: .json(["items": 1]),
///                 scenario: ScenarioStep("cart", requiredState: "has item")))
/// ```
public struct ScenarioStep: Sendable, Hashable, CustomStringConvertible {
    /// The state every scenario starts in (and returns to on reset): `"Started"`.
    public static let started = "Started"

    /// The scenario's name.
    public var scenario: String
    /// The state the scenario must be in, or `nil` for any state.
    public var requiredState: String?
    /// The state the scenario moves to when this stub answers, or `nil` to stay.
    public var newState: String?

    /// Creates a scenario step.
    public init(_ scenario: String, requiredState: String? = nil, newState: String? = nil) {
        self.scenario = scenario
        self.requiredState = requiredState
        self.newState = newState
    }

    /// How messages and reports print it.
    public var description: String {
        "scenario \"\(scenario)\"" + (requiredState.map { " in \"\($0)\"" } ?? "") + (newState.map { " → \"\($0)\"" } ?? "")
    }
}

/// The current state of every scenario. Checking a step's required state and moving to its new state happen
/// under one lock, so of two concurrent requests only one can take a given transition.
public final class ScenarioStates: Sendable {
    private let states = Locked<[String: String]>([:])

    /// Creates a store where every scenario is in ``ScenarioStep/started``.
    public init() {}

    /// The state of `scenario`.
    public func state(of scenario: String) -> String {
        states.withLock { $0[scenario] ?? ScenarioStep.started }
    }

    /// Every scenario that has left its start state, or was set, with its state.
    public var all: [String: String] { states.withLock { $0 } }

    /// Puts `scenario` in `state`.
    public func set(_ scenario: String, to state: String) {
        states.withLock { $0[scenario] = state }
    }

    /// Puts every scenario back in ``ScenarioStep/started``.
    public func resetAll() {
        states.withLock { $0.removeAll() }
    }

    /// Atomically: when `step`'s scenario is in its required state, moves it to the new state and returns `true`;
    /// otherwise changes nothing and returns `false`.
    func take(_ step: ScenarioStep) -> Bool {
        states.withLock { states in
            let current = states[step.scenario] ?? ScenarioStep.started
            if let required = step.requiredState, required != current { return false }
            if let next = step.newState { states[step.scenario] = next }
            return true
        }
    }
}
