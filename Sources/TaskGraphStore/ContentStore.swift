import TaskGraphCore

/// The on-disk store of results of earlier runs (layout in docs/cache.md). Placeholder: being built.
public struct ContentStore: Sendable {
    /// The store's root directory.
    public let root: String

    /// A store at `root`.
    public init(root: String) {
        self.root = root
    }
}
