/// An action of a built-in operation type: made only from an `OperationSetup`, it is keyed on
/// the setup's parameters, which the action itself does not keep. A node running one without
/// its setup (the action taken out of a `ConfiguredAction`) is never reused: nothing would tell
/// a grayscale from a blur.
package protocol BuiltInAction: CacheableAction {}

extension BuiltInAction {
    /// Nothing of its own: its node's setup holds its parameters (see `KeyComponents.of`).
    public func addParameters(to key: inout KeyComponents) {}
}
