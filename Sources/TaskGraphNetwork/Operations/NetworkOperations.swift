import TaskGraphCore

/// The network operation types, for a registry to assemble.
public enum NetworkOperations {
    /// `download`.
    public static let types: [OperationType] = [DownloadOperation.type]

    /// The kinds of the network results: `network.download`.
    public static let resultKinds: [ResultKind] = [ResultKind(DownloadedData.self)]
}
