/// `group` in Swift: does nothing once what it needs has finished (an `all` target).
public struct Group: ConfiguredOperation {
    /// The action with its setup.
    public let configured: ConfiguredAction

    /// A `group`.
    public init() throws {
        configured = try GroupOperation.type.configure(Parameters())
    }
}
