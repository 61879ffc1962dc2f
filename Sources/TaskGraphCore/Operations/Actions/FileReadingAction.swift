/// An action that names the files it reads (a `load`'s path, an `exec`'s `inputs:`), so that
/// the planner can make it need the operation that writes one of them (`FileEdges`), as make
/// and Snakemake do.
package protocol FileReadingAction: TaskAction {
    /// The absolute paths, or patterns (`PathGlob`), of the files it reads.
    var filesRead: [String] { get }
    /// The parameter that names them (`inputs`, `path`), for messages.
    var filesReadParameter: String { get }
}
