/// A kind of data that flows along an edge of the graph. Operation types declare which kinds they
/// consume and produce, so `validate` can check every edge before anything runs.
public enum DataKind: String, Hashable, Sendable, Codable, CaseIterable, Comparable {
    /// A decoded image (`ImageDataProvider`).
    case image
    /// A byte buffer (`BytesProvider`): a download, a decrypted file, a process's output.
    case bytes
    /// A file on disk (`FileProvider`).
    case file

    public static func < (lhs: DataKind, rhs: DataKind) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// What an operation type needs from its dependencies.
public enum InputRequirement: Hashable, Sendable {
    /// Nothing: dependencies only order the work.
    case none
    /// Exactly one dependency result of one of these kinds; when several dependencies could
    /// provide it, the pipeline must choose with `input:`.
    case one(of: Set<DataKind>)
    /// Every dependency result of one of these kinds, at least one (fan-in, e.g. a contact sheet).
    case all(of: Set<DataKind>)

    /// The kinds accepted, empty for `.none`.
    public var acceptedKinds: Set<DataKind> {
        switch self {
        case .none: []
        case .one(let kinds), .all(let kinds): kinds
        }
    }
}
