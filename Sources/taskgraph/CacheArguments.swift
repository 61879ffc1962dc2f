import ArgumentParser
import Foundation
import TaskGraphCore
import TaskGraphReporting
import TaskGraphStore

/// Where the cache is, for `run` and the `cache` commands.
struct CacheArguments: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The cache directory (default: $TASKGRAPH_CACHE_DIR, else $XDG_CACHE_HOME/taskgraph, else "
                + "~/.cache/taskgraph).",
            valueName: "dir"))
    var cacheDir: String?

    /// The store's root directory, absolute.
    var root: String {
        let root = cacheDir ?? ContentStore.defaultRoot(environment: ProcessEnvironment.variables)
        return root.hasPrefix("/") ? root : FileManager.default.currentDirectoryPath + "/" + root
    }

    /// The store, reading results back as `registry`'s kinds.
    func store(registry: ResultRegistry = .core, flushingWrites: Bool = true) -> ContentStore {
        ContentStore(root: root, registry: registry, flushingWrites: flushingWrites)
    }

    /// The store the `cache` commands inspect: a directory named with `--cache-dir` must
    /// exist (a mistyped one is not an empty cache); the default one may not exist yet.
    /// - Throws: `ExitCode` 1, after saying so, when the named directory is not there.
    func inspectedStore() async throws -> ContentStore {
        let root = root
        if cacheDir != nil, try await BlockingIO.run({ FileKind(at: root) }) == .missing {
            TextOutput.standardError.write("taskgraph: error: --cache-dir: no cache directory at '\(root)'\n")
            TextOutput.standardError.flush()
            throw ExitCode(CLIExitCode.operationFailed)
        }
        return store()
    }

    /// The size bound: `option` (a `--max-size` or `--cache-max-size` value, checked in
    /// `validate()` with `ByteSize.parse`) when given, else `cache_max_size` from the user's
    /// configuration file, else 5 GiB.
    /// - Throws: `StoreError` for a wrong size or a wrong or unreadable configuration file.
    static func maxSize(option: String?) async throws -> Int64 {
        if let option { return try ByteSize.parse(option) }
        let environment = ProcessEnvironment.variables
        return try await BlockingIO.run { try CacheConfiguration.load(environment: environment).maxSize }
    }

    /// Runs `body`, printing a `StoreError` as `taskgraph: error: …` and exiting 1.
    static func reportingStoreErrors(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let error as StoreError {
            TextOutput.standardError.write("taskgraph: error: \(error)\n")
            TextOutput.standardError.flush()
            throw ExitCode(CLIExitCode.operationFailed)
        }
    }
}
