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

    @Test func aLookupDecodesWhatWasRememberedAndAnUnchangedMemoryIsNotRewritten() async throws {
        let store = try temporaryStore()
        try await store.rememberComponents(["a": components("1"), "b": components("2")], pipeline: "/work/p.yaml")
        let lookup = await store.rememberedComponents(pipeline: "/work/p.yaml")
        #expect(lookup("a") == components("1"))
        #expect(lookup("b") == components("2"))
        #expect(lookup("c") == nil)
        #expect(await store.rememberedComponents(pipeline: "/work/other.yaml")("a") == nil)

        let path = store.layout.components(pipeline: "/work/p.yaml")
        let inode = FileStat.of(path)?.inode
        try await store.rememberComponents(["b": components("2")], pipeline: "/work/p.yaml")
        #expect(FileStat.of(path)?.inode == inode)
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
