import Foundation
import Testing
import TaskGraphCore

@testable import TaskGraphStore

/// What the store remembers of runs: each pipeline's last key components, and the hits and
/// misses of recent runs.
@Suite struct MemoryTests {
    private func components(_ value: String) -> KeyComponents {
        var components = KeyComponents()
        components.add("operation", "blur")
        components.add("parameter.radius", value)
        return components
    }

    @Test func componentsAreMergedByOperationId() async throws {
        let store = try temporaryStore()
        #expect(await store.previousComponents(pipeline: "/work/p.yaml").isEmpty)
        try await store.rememberComponents(["a": components("1"), "b": components("2")], pipeline: "/work/p.yaml")
        try await store.rememberComponents(["b": components("3"), "c": components("4")], pipeline: "/work/p.yaml")
        #expect(await store.previousComponents(pipeline: "/work/p.yaml") == [
            "a": components("1"), "b": components("3"), "c": components("4"),
        ])
        #expect(await store.previousComponents(pipeline: "/work/other.yaml").isEmpty)
    }

    @Test func tenThousandOperationsRoundTrip() async throws {
        let store = try temporaryStore()
        let all = Dictionary(uniqueKeysWithValues: (0..<10_000).map { ("op\($0)", components("\($0)")) })
        try await store.rememberComponents(all, pipeline: "/work/big.yaml")
        #expect(await store.previousComponents(pipeline: "/work/big.yaml") == all)
    }

    @Test func theRunLogKeepsTheLatestFifty() async throws {
        let store = try temporaryStore()
        for index in 0..<52 {
            try await store.recordRun(pipeline: "/work/p\(index).yaml", hits: index, misses: 1)
        }
        let runs = await store.recentRuns()
        #expect(runs.count == 50)
        #expect(runs.first?.pipeline == "/work/p2.yaml")
        #expect(runs.last?.hits == 51)
    }

    @Test func aRunLogLineSurvivesOddPaths() {
        let run = CacheRun(date: 10.5, hits: 3, misses: 4, pipeline: "/a\tb\nc.yaml")
        #expect(CacheRun.parse(run.line) == [CacheRun(date: 10.5, hits: 3, misses: 4, pipeline: "/a b c.yaml")])
    }
}
