/// The generic operation types every registry starts from.
public enum CoreOperations {
    /// `group`, `exec`, `load` and `save`; `save` encodes through `saveEncoder` when given.
    public static func types(saveEncoder: (any SaveEncoder)? = nil) -> [OperationType] {
        [GroupOperation.type, ExecOperation.type, LoadOperation.type, SaveOperation.type(encoder: saveEncoder)]
    }

    /// The kinds of the core's results: `empty`, `bytes`, `file.loaded`, `file.written`,
    /// `process.output`.
    public static let resultKinds: [ResultKind] = [
        ResultKind(EmptyResult.self), ResultKind(BytesResult.self), ResultKind(LoadedFile.self),
        ResultKind(WrittenFile.self), ResultKind(ProcessOutput.self), ResultKind(StoredResult.self),
        ResultKind(UnstoredResult.self),
    ]
}
