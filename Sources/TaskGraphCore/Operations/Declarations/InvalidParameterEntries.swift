/// Mistakes in the entries of an operation's parameters (a list's items, a map's keys), every
/// one of them, each with where it is: `validate` reports each at its own place in the file.
public struct InvalidParameterEntries: Error, Equatable, Sendable {
    /// Where an entry is within its parameter's value.
    public enum Position: Hashable, Sendable {
        /// The item at this index of a list.
        case index(Int)
        /// The entry with this key of a map.
        case key(String)
    }

    /// One mistake.
    public struct Entry: Equatable, Sendable {
        /// The parameter, e.g. `env`.
        public var parameter: String
        /// The entry within it.
        public var position: Position
        /// What is wrong with it.
        public var error: OperationError

        /// Describes one mistake.
        public init(parameter: String, position: Position, error: OperationError) {
            self.parameter = parameter
            self.position = position
            self.error = error
        }
    }

    /// Every mistake, in parameter order.
    public var entries: [Entry]

    /// The mistakes found.
    public init(_ entries: [Entry]) {
        self.entries = entries
    }
}

extension InvalidParameterEntries: CustomStringConvertible {
    /// Every mistake's message, joined with `; `.
    public var description: String { entries.map(\.error.description).joined(separator: "; ") }
}
