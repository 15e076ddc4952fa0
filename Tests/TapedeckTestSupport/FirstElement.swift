/// The first element of `stream` that satisfies `condition`, or `nil` when none comes within `timeout` (or the stream
/// ends first): a bounded wait for something a test expects to happen. The default bound is a safety net against
/// something that never comes, generous so that a loaded machine never trips it.
///
/// ```swift
/// let status = await firstElement(of: manager.statuses(), within: .seconds(5)) { $0 != .unknown }
/// ```
public func firstElement<Element: Sendable>(
    of stream: AsyncStream<Element>, within timeout: Duration = .seconds(120),
    where condition: @escaping @Sendable (Element) -> Bool = { _ in true }
) async -> Element? {
    await withTaskGroup(of: Element?.self) { group in
        group.addTask {
            for await element in stream where condition(element) { return element }
            return nil
        }
        group.addTask {
            try? await Task.sleep(for: timeout)
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}
