/// One problem found in a pipeline, printed the way compilers print them:
/// `pipelines/photos.yaml:12:7: error: message`, followed by its notes.
public struct Diagnostic: Hashable, Sendable, Codable, CustomStringConvertible {
    /// How serious a diagnostic is.
    public enum Severity: String, Hashable, Sendable, Codable {
        case error
        case warning
        case note
    }

    /// How serious the problem is.
    public var severity: Severity
    /// Where the problem is.
    public var location: SourceLocation
    /// What is wrong, in one line.
    public var message: String
    /// Further locations that explain the problem (e.g. every edge of a cycle).
    public var notes: [Diagnostic]

    /// Creates a diagnostic.
    public init(
        _ severity: Severity, at location: SourceLocation, _ message: String,
        notes: [Diagnostic] = []
    ) {
        self.severity = severity
        self.location = location
        self.message = message
        self.notes = notes
    }

    /// An error at `location`.
    public static func error(
        _ message: String, at location: SourceLocation, notes: [Diagnostic] = []
    ) -> Diagnostic {
        Diagnostic(.error, at: location, message, notes: notes)
    }

    /// A warning at `location`.
    public static func warning(_ message: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.warning, at: location, message)
    }

    /// A note at `location`, attached to an error or warning.
    public static func note(_ message: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.note, at: location, message)
    }

    /// The diagnostic and its notes, one per line.
    public var description: String {
        ([self.headline] + notes.map(\.headline)).joined(separator: "\n")
    }

    private var headline: String { "\(location): \(severity.rawValue): \(message)" }
}

extension Array where Element == Diagnostic {
    /// Sorted by file, line, column, then message: the order `validate` prints them in.
    public func sortedForDisplay() -> [Diagnostic] {
        sorted { ($0.location, $0.message) < ($1.location, $1.message) }
    }

    /// Whether any of these is an error (warnings alone leave a pipeline valid).
    public var containsErrors: Bool { contains { $0.severity == .error } }
}
