/// A value together with where the user wrote it, so diagnostics can point at it.
public struct Located<Value> {
    /// The value as read from the file (after variable substitution where that applies).
    public var value: Value
    /// Where the value starts in its file.
    public var location: SourceLocation

    /// Creates a located value.
    public init(_ value: Value, at location: SourceLocation) {
        self.value = value
        self.location = location
    }

    /// The same location holding a transformed value.
    public func map<T>(_ transform: (Value) throws -> T) rethrows -> Located<T> {
        Located<T>(try transform(value), at: location)
    }
}

extension Located: Sendable where Value: Sendable {}
extension Located: Equatable where Value: Equatable {}
extension Located: Hashable where Value: Hashable {}
