/// The generic operation types every registry starts from.
public enum CoreOperations {
    /// `group`, `exec`, `load` and `save`; `save` encodes through `saveEncoder` when given.
    public static func types(saveEncoder: (any SaveEncoder)? = nil) -> [OperationType] {
        [GroupOperation.type, ExecOperation.type, LoadOperation.type, SaveOperation.type(encoder: saveEncoder)]
    }
}
