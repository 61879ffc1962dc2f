import Foundation
import TaskGraphCore
import Testing

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
        #expect(
            await store.previousComponents(pipeline: "/work/p.yaml") == [
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

    /// A first run's memory is encoded as it is written, in pieces: each holds whole
    /// operations, at most `pieceSize` bytes unless one operation's components take more, and
    /// the pieces one after the other are the memory.
    @Test func aMemoryOfMoreThanOnePieceIsEncodedPieceByPiece() async throws {
        func pieces(_ update: ComponentMemory.Update) -> [Data] {
            var pieces: [Data] = []
            update.encode { pieces.append($0) }
            return pieces
        }
        let all = Dictionary(uniqueKeysWithValues: (0..<10_000).map { ("op\($0)", components("\($0)")) })
        let update = try #require(ComponentMemory.update(all, over: nil, pipeline: "/work/big.yaml"))
        #expect(update.isWholeFile)
        #expect(pieces(update).count > 1)
        #expect(pieces(update).allSatisfy { $0.count <= ComponentMemory.pieceSize })
        #expect(ComponentMemory.decode(update.data, pipeline: "/work/big.yaml") == all)
        var inputs = KeyComponents()
        for index in 0..<20_000 { inputs.add("file.in\(index)", "0123456789") }
        let large = ["a": components("1"), "inputs": inputs, "z": components("2")]
        let largeUpdate = try #require(ComponentMemory.update(large, over: nil, pipeline: "/work/p.yaml"))
        #expect(pieces(largeUpdate).map { $0.count > ComponentMemory.pieceSize } == [false, true, false])
        #expect(ComponentMemory.decode(largeUpdate.data, pipeline: "/work/p.yaml") == large)
        let store = try temporaryStore()
        try await store.rememberComponents(large, pipeline: "/work/p.yaml")
        let file = try Data(contentsOf: URL(fileURLWithPath: store.layout.components(pipeline: "/work/p.yaml")))
        #expect(file == largeUpdate.data)
    }

    @Test func aRunPreparedForReadsTheMemoryReadWhenPreparing() async throws {
        let store = try temporaryStore()
        try await store.rememberComponents(["a": components("1")], pipeline: "/work/p.yaml")
        let next = ContentStore(root: store.root, registry: .core)
        next.prepareForRun(pipeline: "/work/p.yaml")
        // Remembered by another process after the reading started: not what this run compares with.
        let reading = next.rememberedComponents(pipeline: "/work/p.yaml")
        #expect(await reading("a") == components("1"))
        try await store.rememberComponents(["a": components("2")], pipeline: "/work/p.yaml")
        #expect(await reading("a") == components("1"))
        #expect(await next.rememberedComponents(pipeline: "/work/p.yaml")("a") == components("1"))
    }

    @Test func aLookupDecodesWhatWasRememberedAndAnUnchangedMemoryIsNotRewritten() async throws {
        let store = try temporaryStore()
        try await store.rememberComponents(["a": components("1"), "b": components("2")], pipeline: "/work/p.yaml")
        let lookup = store.rememberedComponents(pipeline: "/work/p.yaml")
        #expect(await lookup("a") == components("1"))
        #expect(await lookup("b") == components("2"))
        #expect(await lookup("c") == nil)
        #expect(await store.rememberedComponents(pipeline: "/work/other.yaml")("a") == nil)

        let path = store.layout.components(pipeline: "/work/p.yaml")
        let inode = FileStat.of(path)?.inode
        try await store.rememberComponents(["b": components("2")], pipeline: "/work/p.yaml")
        #expect(FileStat.of(path)?.inode == inode)
    }

    @Test func aRunThatChangedAFewOperationsAppendsThemWithoutRewritingTheRest() async throws {
        let store = try temporaryStore()
        let all = Dictionary(uniqueKeysWithValues: (0..<100).map { ("op\($0)", components("\($0)")) })
        try await store.rememberComponents(all, pipeline: "/work/p.yaml")
        let path = store.layout.components(pipeline: "/work/p.yaml")
        let before = try #require(FileStat.of(path))

        #expect(await store.rememberedComponents(pipeline: "/work/p.yaml")("op7") == components("7"))
        var changed = all
        changed["op7"] = components("seven")
        try await store.rememberComponents(changed, pipeline: "/work/p.yaml")
        let after = try #require(FileStat.of(path))
        #expect(after.inode == before.inode)
        #expect(after.size > before.size && after.size < before.size + 200)
        var expected = all
        expected["op7"] = components("seven")
        #expect(await store.previousComponents(pipeline: "/work/p.yaml") == expected)
        #expect(await store.rememberedComponents(pipeline: "/work/p.yaml")("op7") == components("seven"))
    }

    @Test func anAppendCutShortCountsAsNotMadeAndTheNextRunRewritesTheFile() async throws {
        let store = try temporaryStore()
        let path = store.layout.components(pipeline: "/work/p.yaml")
        try await store.rememberComponents(["a": components("1"), "b": components("2")], pipeline: "/work/p.yaml")
        try await store.rememberComponents(["b": components("3")], pipeline: "/work/p.yaml")
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        try whole.dropLast(5).write(to: URL(fileURLWithPath: path))
        let inode = FileStat.of(path)?.inode
        #expect(
            await store.previousComponents(pipeline: "/work/p.yaml") == ["a": components("1"), "b": components("2")])

        try await store.rememberComponents(["c": components("4")], pipeline: "/work/p.yaml")
        #expect(FileStat.of(path)?.inode != inode)
        #expect(
            await store.previousComponents(pipeline: "/work/p.yaml") == [
                "a": components("1"), "b": components("2"), "c": components("4"),
            ])
    }

    @Test func theMemoryIsRewrittenWhenLessThanHalfOfItIsCurrent() async throws {
        let store = try temporaryStore()
        let path = store.layout.components(pipeline: "/work/p.yaml")
        var all = Dictionary(uniqueKeysWithValues: (0..<50).map { ("op\($0)", components("\($0)")) })
        try await store.rememberComponents(all, pipeline: "/work/p.yaml")
        let first = try #require(FileStat.of(path))
        var appends = 0
        var rewrites = 0
        var largest: Int64 = 0
        for round in 1...6 {
            // Each round changes 20 of the 50 operations.
            for index in 0..<20 { all["op\((round * 20 + index) % 50)"] = components("\(round)-\(index)") }
            let before = try #require(FileStat.of(path))
            try await store.rememberComponents(all, pipeline: "/work/p.yaml")
            #expect(await store.previousComponents(pipeline: "/work/p.yaml") == all)
            let after = try #require(FileStat.of(path))
            if after.inode == before.inode { appends += 1 } else { rewrites += 1 }
            largest = max(largest, after.size)
        }
        #expect(appends >= 2 && rewrites >= 2)
        #expect(largest < 2 * first.size)
    }

    @Test func aMemoryOfTheFirstVersionCountsAsNone() async throws {
        let store = try temporaryStore()
        let path = store.layout.components(pipeline: "/work/p.yaml")
        try await store.rememberComponents(["a": components("1")], pipeline: "/work/p.yaml")
        var data = try Data(contentsOf: URL(fileURLWithPath: path))
        data[4] = 1
        try data.write(to: URL(fileURLWithPath: path))
        #expect(await store.previousComponents(pipeline: "/work/p.yaml").isEmpty)
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
