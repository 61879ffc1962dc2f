/// Why a `foreach: {from: …}` expansion failed at run time: the result it reads, one of its
/// items, or the instances made from them. The expansion (`index[*]`) fails with the message.
public enum FanOutError: Error, Equatable, Sendable {
    /// The operation's result is not bytes (a JSON array or lines of text).
    case notText(source: String)
    /// The result starts like a JSON array but is not valid JSON.
    case invalidJSON(source: String, reason: String)
    /// Item `position` (1-based) is neither a string, a number nor an object.
    case unsupportedItem(source: String, position: Int)
    /// Item `position`, an object, has no field for its id (`field`, or `name` and `id`).
    case missingID(source: String, position: Int, field: String?)
    /// Item `position`'s id is empty or has `]`, `[` or a line break.
    case invalidID(source: String, position: Int, id: String)
    /// Item `position` has the id of the earlier item `first`.
    case duplicateID(source: String, position: Int, id: String, first: Int)
    /// Item `position` lacks a field that an operation uses as `${item.field}`.
    case missingField(source: String, position: Int, id: String, field: String, operation: String)
    /// The instances could not be planned (a parameter of one is invalid): the planner's errors.
    case invalidInstances(source: String, errors: [String])
    /// The run does not accept nodes while it runs (no `RunHandle`).
    case notExpandable(source: String)
}

extension FanOutError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .notText(let source):
            "the result of '\(source)' is not text: 'foreach: {from: \(source)}' reads a JSON array or one item "
                + "per line"
        case .invalidJSON(let source, let reason):
            "the result of '\(source)' is not a valid JSON array: \(reason)"
        case .unsupportedItem(let source, let position):
            "item \(position) of '\(source)' is neither a string, a number nor an object"
        case .missingID(let source, let position, let field):
            if let field {
                "item \(position) of '\(source)' has no field '\(field)' (its id, by 'id_field')"
            } else {
                "item \(position) of '\(source)' has no 'name' or 'id' field for its id; name one with 'id_field'"
            }
        case .invalidID(let source, let position, let id):
            "item \(position) of '\(source)' has the id \(DisplayText.quoted(id)), which must be non-empty and contain "
                + "no '[', ']' or line break"
        case .duplicateID(let source, let position, let id, let first):
            "item \(position) of '\(source)' has the id \(DisplayText.quoted(id)), as item \(first) has"
        case .missingField(let source, let position, let id, let field, let operation):
            "item \(position) of '\(source)' (\(DisplayText.quoted(id))) has no field '\(field)', which operation "
                + "'\(operation)' uses as ${item.\(field)}"
        case .invalidInstances(let source, let errors):
            "the instances made from the items of '\(source)' are invalid: " + errors.joined(separator: "; ")
        case .notExpandable(let source):
            "the items of '\(source)' cannot be added: the run does not accept nodes while it runs (pass a RunHandle)"
        }
    }
}
