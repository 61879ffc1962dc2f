/// An action that writes files besides its result (a `save`'s path, an `exec`'s `outputs:`), so
/// that the planner can make an operation reading one of them need it (`FileEdges`) and refuse
/// two writers of one file (`OutputWriters`), as make and Snakemake do. Every
/// `CacheableAction` is one.
public protocol FileWritingAction: TaskAction {
    /// The files it writes besides its result (absolute paths). For a `CacheableAction` they
    /// are recorded with the result and restored on a hit when missing or changed; they enter
    /// the key relative to the node's output or pipeline directory, so a record made elsewhere
    /// is reused here, its files restored at these paths (`OutputLocations`).
    var outputFiles: [String] { get }
}
