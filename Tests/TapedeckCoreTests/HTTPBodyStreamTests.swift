import Foundation
import Testing
import TapedeckCore
import TapedeckTestSupport

/// A source of numbered chunks that counts how many it has handed out.
private struct CountingChunks: AsyncSequence, Sendable {
    typealias Element = Data
    let produced: Locked<Int>
    let total: Int

    struct AsyncIterator: AsyncIteratorProtocol {
        let produced: Locked<Int>
        let total: Int
        var index = 0
        mutating func next() async throws -> Data? {
            guard index < total else { return nil }
            index += 1
            produced.withLock { $0 += 1 }
            return Data(repeating: UInt8(truncatingIfNeeded: index), count: 1024)
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(produced: produced, total: total) }
}

@Suite struct HTTPBodyStreamTests {
    @Test func chunksAreReadOnlyAsTheConsumerAsksForThem() async throws {
        let produced = Locked(0)
        let body = HTTPBodyStream(length: nil) { CountingChunks(produced: produced, total: 1000) }
        var iterator = body.makeChunks().makeAsyncIterator()
        _ = try await iterator.next()
        _ = try await iterator.next()
        // Give an eager producer every chance to run ahead before counting.
        try await Task.sleep(for: .milliseconds(50))
        #expect(produced.value == 2)
    }

    @Test func eachPassStartsFromTheFirstChunk() async throws {
        let produced = Locked(0)
        let body = HTTPBodyStream(length: 3 * 1024) { CountingChunks(produced: produced, total: 3) }
        for _ in 0..<2 {
            var bytes = Data()
            for try await chunk in body.makeChunks() { bytes.append(chunk) }
            #expect(bytes.count == 3 * 1024)
            #expect(bytes.first == 1)
        }
        #expect(produced.value == 6)
    }
}
