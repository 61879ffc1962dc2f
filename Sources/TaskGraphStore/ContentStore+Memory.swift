import Foundation
import TaskGraphCore

extension ContentStore {
    /// The components of the last key used for each operation id of the pipeline file at
    /// `pipeline` (an absolute path); none when nothing was remembered or it cannot be read.
    public func previousComponents(pipeline: String) async -> [String: KeyComponents] {
        let path = layout.components(pipeline: pipeline)
        let layout = layout
        let data = (try? await BlockingIO.run { try StoreIO.mapped(path, layout) }) ?? nil
        return data.map { ComponentMemory.decode($0, pipeline: pipeline) } ?? [:]
    }

    /// `previousComponents(pipeline:)` as a lookup that decodes an id's components only when
    /// asked for them. The memory is read on a blocking thread from now on (or since
    /// `prepareForRun(pipeline:)`), while the run starts; the lookup waits for it. What it read
    /// is what `rememberComponents` later compares with.
    public func rememberedComponents(pipeline: String) -> @Sendable (String) async -> KeyComponents? {
        let reading = componentsReading(pipeline: pipeline)
        return { id in await reading.value?.components(of: id) }
    }

    /// Starts reading, on blocking threads, what a run of the pipeline file at `pipeline` reads
    /// first: the stat cache and the pipeline's components memory, so that a run which must
    /// load its pipeline first finds them read.
    public func prepareForRun(pipeline: String) {
        _ = componentsReading(pipeline: pipeline)
        let statCache = statCache
        BlockingIO.currentSubmit { statCache.load() }
    }

    /// The reading of `pipeline`'s components memory, started now unless it already was.
    private func componentsReading(pipeline: String) -> Task<ComponentMemory.Loaded?, Never> {
        let path = layout.components(pipeline: pipeline)
        let layout = layout
        return memoriesRead.withLock { reads in
            if let started = reads[path] { return started }
            let reading = Task {
                (try? await BlockingIO.run { () throws -> ComponentMemory.Loaded? in
                    try StoreIO.mapped(path, layout).flatMap { ComponentMemory.load($0, pipeline: pipeline) }
                }) ?? nil
            }
            reads[path] = reading
            return reading
        }
    }

    /// Remembers `components` (by operation id) for the pipeline file at `pipeline`, merged into
    /// what is stored: ids not given keep their components. Appends those that changed since
    /// `rememberedComponents` read the memory; nothing is written when none did (a run where
    /// nothing changed).
    /// - Throws: `StoreError.writeFailed`.
    public func rememberComponents(_ components: [String: KeyComponents], pipeline: String) async throws {
        let path = layout.components(pipeline: pipeline)
        let layout = layout
        let flush = flushesWrites
        let read = await memoriesRead.withLock { $0.removeValue(forKey: path) }?.value
        try await BlockingIO.run {
            // A batch of those that changed, appended in one `write`; false for a whole file.
            func appended(_ update: ComponentMemory.Update) throws -> Bool {
                try !update.isWholeFile && StoreIO.append(update.data, to: path, layout, flush: flush)
            }
            if let read {
                guard let update = ComponentMemory.update(components, over: read, pipeline: pipeline) else { return }
                if try appended(update) { return }
            }
            // Rewritten from the file as it is now: what other runs appended since it was read stays.
            let data = (try? StoreIO.mapped(path, layout)) ?? nil
            let current = data.flatMap { ComponentMemory.load($0, pipeline: pipeline) }
            guard let update = ComponentMemory.update(components, over: current, pipeline: pipeline) else { return }
            if try appended(update) { return }
            // The file went since it was read (`cache clear`): written whole.
            guard
                let whole = update.isWholeFile
                    ? update : ComponentMemory.update(components, over: current, pipeline: pipeline, wholeFile: true)
            else { return }
            try StoreIO.writeFile(to: path, layout, flush: flush) { write throws(StoreError) in
                try whole.encode(write)
            }
        }
    }

    /// Adds a run's hits and misses to the log `cache status` shows, which keeps the latest
    /// `CacheRun.kept`. Two processes adding at the same instant may lose one entry (the last
    /// to rename wins); the log is only statistics.
    /// - Throws: `StoreError.writeFailed`.
    public func recordRun(pipeline: String, hits: Int, misses: Int, remote: RemoteStatistics? = nil) async throws {
        let run = CacheRun(
            date: Double(wallClockNanoseconds()) / 1e9, hits: hits, misses: misses, pipeline: pipeline, remote: remote)
        let layout = layout
        let flush = flushesWrites
        try await BlockingIO.run {
            let runs = (Self.readRuns(layout) + [run]).suffix(CacheRun.kept)
            try StoreIO.writeFile(Data(runs.map(\.line).joined().utf8), to: layout.runLog, layout, flush: flush)
        }
    }

    /// The latest runs recorded, oldest first.
    public func recentRuns() async -> [CacheRun] {
        let layout = layout
        return (try? await BlockingIO.run { Self.readRuns(layout) }) ?? []
    }

    /// Writes the stat cache to the store, if it learnt anything: call once at the end of a run.
    /// - Throws: `StoreError.writeFailed`.
    public func flush() async throws {
        try await BlockingIO.run { [statCache] in try statCache.save() }
    }

    /// The runs in the log, oldest first. Blocking.
    static func readRuns(_ layout: StoreLayout) -> [CacheRun] {
        guard let data = (try? StoreIO.read(layout.runLog, layout)) ?? nil else { return [] }
        return CacheRun.parse(String(decoding: data, as: UTF8.self))
    }
}
