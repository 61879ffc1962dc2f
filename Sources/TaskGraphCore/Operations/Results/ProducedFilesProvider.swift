/// A result that stands for files its operation wrote besides itself (an `exec`'s declared
/// `outputs:`). `run --lint` lets an operation read them when it needs that result.
public protocol ProducedFilesProvider: OperationResult {
    /// The paths of the files the result stands for: absolute, or relative to the pipeline
    /// file's directory.
    var producedFiles: [String] { get }
}
