/// What the last run of the same command left, for a run that starts from it: each operation's
/// result digest (and stored result), the files it rested on, which of them had changed when
/// the run started, and how to tell whether a file is still as it was. An operation whose
/// files are all unchanged and whose inputs' results still have the digests they had then has
/// the same key, so it is reused without computing the key or reading its record
/// (`taskgraph run`'s up-to-date snapshot: only what a change reaches is looked up). Its files
/// are checked again when it is ready if something it needs ran or restored files in this run
/// (it may have rewritten them, declared or not); otherwise the check at the start stands.
///
/// Only valid when nothing else that enters keys changed: the pipeline file, the command's
/// arguments and environment, the program, and no record was removed from the store since.
public struct KnownResults: Sendable {
    /// What one operation had.
    public struct Entry: Sendable, Equatable {
        /// The digest of its result.
        public var digest: ContentDigest
        /// Its result as stored; nil for a constant result (`CacheableAction.constantResult`).
        public var stored: StoredResult?
        /// The absolute paths of the files its key and hit rested on (inputs, program, outputs).
        public var files: [String]

        /// An operation's entry.
        public init(digest: ContentDigest, stored: StoredResult?, files: [String]) {
            self.digest = digest
            self.stored = stored
            self.files = files
        }
    }

    /// Each operation's entry, by instance id.
    public var entries: [String: Entry]
    /// The files that had changed when the run started (every file of every entry was checked).
    public var changedAtStart: Set<String>
    /// The operations (by id) one of whose files is among `changedAtStart`.
    public var changedOperations: Set<String>
    /// Whether the file at a path is still as the last run left it, checked now. Blocking.
    public var isUnchanged: @Sendable (String) -> Bool

    /// The entries of the last run, the files changed at the start (and the operations they
    /// are files of, when the caller knows them at less cost), and how to check a path again
    /// (blocking).
    public init(
        entries: [String: Entry], changedAtStart: Set<String>, changedOperations: Set<String>? = nil,
        isUnchanged: @escaping @Sendable (String) -> Bool
    ) {
        self.entries = entries
        self.changedAtStart = changedAtStart
        self.changedOperations =
            changedOperations
            ?? Set(entries.lazy.filter { $0.value.files.contains(where: changedAtStart.contains) }.map(\.key))
        self.isUnchanged = isUnchanged
    }
}
