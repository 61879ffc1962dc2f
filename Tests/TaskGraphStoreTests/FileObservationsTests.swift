import TaskGraphCore
import Testing

@testable import TaskGraphStore

/// What a run's keys were decided from: complete until something no `stat` shows was used.
@Suite struct FileObservationsTests {
    private let stat = FileStat(size: 3, modified: 1, changed: 1, inode: 7, device: 1)

    @Test func aFileUsedWithAnotherStatMakesThemIncomplete() {
        var observations = FileObservations()
        observations.note("/a", .init(stat: stat))
        observations.note("/a", .init(stat: stat))
        #expect(observations.isComplete)
        #expect(observations.files == ["/a": .init(stat: stat)])
        var changed = stat
        changed.size = 4
        observations.note("/a", .init(stat: changed))
        #expect(!observations.isComplete)
    }

    /// Nothing compares incomplete observations: 50,000 pattern-matched files are not kept.
    @Test func incompleteObservationsKeepNoFiles() {
        var observations = FileObservations()
        observations.note("/a", .init(stat: stat))
        observations.isComplete = false
        #expect(observations.files.isEmpty)
        observations.note("/b", .init(stat: stat))
        #expect(observations.files.isEmpty)
        #expect(!observations.isComplete)
    }
}
