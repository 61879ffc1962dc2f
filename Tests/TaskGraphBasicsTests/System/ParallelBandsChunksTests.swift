import OperationTestSupport
import TaskGraphCore
import Testing

@testable import TaskGraphBasics

@Suite struct ParallelBandsChunksTests {
    @Test func joinsChunksInOrder() {
        for count in [0, 1, 2, 7, 1_000] {
            let (elements, diagnostics) = ParallelBands.collect(count: count, minimumChunkSize: 1) {
                (range, elements: inout [Int], diagnostics: inout [Diagnostic]) in
                for index in range {
                    elements.append(index * 2)
                    if index % 3 == 0 {
                        diagnostics.append(
                            .error("item \(index)", at: SourceLocation(file: "f", line: index + 1, column: 1)))
                    }
                }
            }
            #expect(elements == (0..<count).map { $0 * 2 })
            #expect(diagnostics.map(\.message) == (0..<count).filter { $0 % 3 == 0 }.map { "item \($0)" })
        }
    }

    /// A pipeline large enough to be read and planned in several chunks gives the same
    /// diagnostics as a small one: every error, in order, with none lost at chunk boundaries.
    @Test func largePipelineReportsErrorsFromEveryChunk() {
        let count = 4 * ParallelBands.minimumChunkSize
        var yaml = "version: 1\noperations:\n"
        var line = 3
        var expected: [String] = []
        for index in 0..<count {
            yaml +=
                "  op\(index):\n    op: exec\n    command: [echo, \"\(index)\"]\n    needs: "
                + "[\(index == 0 ? "" : "op\(index - 1)")]\n"
            line += 4
            if index % 2_000 == 7 {
                yaml += "    colour: red\n"
                expected.append("test.yaml:\(line):5: error: operation 'op\(index)': unknown key 'colour' for 'exec'")
                line += 1
            }
            if index % 2_000 == 9 {
                yaml += "    retries: many\n"
                expected.append(
                    "test.yaml:\(line):14: error: operation 'op\(index)': 'retries' must be a whole number from 0 to "
                        + "100, not 'many'"
                )
                line += 1
            }
        }
        #expect(diagnostics(yaml) == expected)
    }
}

@Suite struct ParallelBandsForEachTests {
    /// How many times each index was called.
    final class Calls: Sendable {
        private let counts: Locked<[Int]>
        init(_ count: Int) { counts = Locked([Int](repeating: 0, count: count)) }
        func record(_ index: Int) { counts.withLock { $0[index] += 1 } }
        var all: [Int] { counts.withLock { $0 } }
    }

    @Test func callsEveryIndexOnce() {
        for (count, threads) in [(0, 8), (1, 8), (5, 2), (1_000, 64)] {
            let calls = Calls(count)
            ParallelBands.forEach(count, threads: threads) { calls.record($0) }
            #expect(calls.all == [Int](repeating: 1, count: count))
        }
    }
}
