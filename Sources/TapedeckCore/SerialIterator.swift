import Foundation

/// Owns the iterator of one async sequence and advances it in its own isolation, one element per call, so a
/// `@Sendable` closure (e.g. `AsyncThrowingStream(unfolding:)`) can pull from a sequence whose iterator is not
/// `Sendable`. Pulling one element per call keeps back-pressure: nothing is read before it is asked for.
package actor SerialIterator<Base: AsyncSequence> {
    /// Taken out while a call is advancing it, so a second, overlapping call cannot use a stale copy.
    private var iterator: Base.AsyncIterator?

    package init(_ sequence: sending Base) {
        iterator = sequence.makeAsyncIterator()
    }

    /// The next element, or `nil` at the end (and for a call that overlaps another, which only iterating one
    /// sequence from two tasks at once can cause).
    package func next() async throws -> Base.Element? {
        guard var current = iterator.take() else { return nil }
        let element = try await current.next(isolation: self)
        iterator = current
        return element
    }
}
