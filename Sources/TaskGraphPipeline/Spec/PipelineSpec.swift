/// A pipeline file as read and checked key by key, before its graph is planned.
package struct PipelineSpec {
    /// The file the pipeline came from, as the user named it.
    package var file: String
    /// The pipeline's name (`name:`, or the file name without extension).
    package var name: String
    /// Where outputs go, relative to the current directory (`output:`), if set.
    package var output: Located<String>?
    /// Depths of named pools declared in the file.
    package var pools: [String: Located<Int>]
    /// Variables and environment for `${…}`.
    package var variables: Variables
    /// Operations in file order.
    package var operations: [OperationSpec]
    /// `executor:`, where operations run (`local` or a registered executor's name), if set.
    package var executor: Located<String>? = nil
    /// `store:`, the store directory relative to the current directory, if set.
    package var store: Located<String>? = nil
    /// The variables of each included file, in the order they were read: an operation of
    /// scope `n > 0` substitutes with `includedScopes[n - 1]` (`include:`).
    package var includedScopes: [Variables] = []
    /// The files included, directly or not, as diagnostics name them, in the order they were read.
    package var includedFiles: [String] = []

    /// A spec of operations `operations` read from `file`, nothing included.
    package init(
        file: String, name: String, output: Located<String>?, pools: [String: Located<Int>], variables: Variables,
        operations: [OperationSpec]
    ) {
        self.file = file
        self.name = name
        self.output = output
        self.pools = pools
        self.variables = variables
        self.operations = operations
    }

    /// The variables operation `index`'s parameters are substituted with: its file's.
    package func variables(of index: Int) -> Variables {
        let scope = operations[index].scope
        return scope == 0 ? variables : includedScopes[scope - 1]
    }
}

/// One entry of `operations:` as written.
///
/// `@usableFromInline`, with `parameter(_:)` `@inlinable`, for the planner in TaskGraphCore,
/// which looks parameters up for every instance: this toolchain (Swift 6.3) inlines an
/// `@inlinable package` member in another module only when its type is `@usableFromInline`,
/// and a call that is not inlined is handed a copy of the whole operation (its value-witness
/// copy, about 400 instructions). Stored fields are read in place from other modules; methods
/// and computed properties are such calls.
@usableFromInline package struct OperationSpec: Sendable {
    /// The operation id (the mapping key).
    package var id: Located<String>
    /// The `op:` value, if present.
    package var type: Located<String>?
    /// The `needs:` entries.
    package var needs: [Located<String>]
    /// Where `needs:` is written, for errors about the dependencies as a whole.
    package var needsLocation: SourceLocation?
    /// The `foreach:` as read, if the operation has `foreach`.
    package var foreach: ForeachSpec?
    /// The engine settings (`retries:`, `timeout:`, `pool:`, `cache:`, `priority:`, `exclusive:`,
    /// `when:`, `executor:` and the cluster resources) after applying `defaults:`: how the engine
    /// treats the operation's instances.
    package var settings = NodeSettings()
    /// Where the pool was named (in the operation or under `defaults:`), if it was.
    package var poolLocation: SourceLocation?
    /// Where `when:` was written, if it was.
    package var whenLocation: SourceLocation?
    /// `input:`, the dependency chosen as input.
    package var input: Located<String>?
    /// `description:`, what the operation is for, if written.
    package var description: String?
    /// The operation type's own parameters as written, in file order (keys are unique). A list,
    /// not a dictionary: an operation sets a handful, and most operations are read only once.
    /// (Not the mapping's own list: keeping every operation's whole mapping alive until the
    /// graph is planned cost more memory than these small copies.)
    @usableFromInline package var parameters: [YAMLPair]
    /// Whose variables its parameters use: 0 for the pipeline file's, `n` for the `n`th
    /// included file's (`PipelineSpec.variables(of:)`).
    package var scope = 0

    /// An operation as written: `id`, of type `type`, needing `needs`, with `parameters`.
    package init(
        id: Located<String>, type: Located<String>? = nil, needs: [Located<String>],
        needsLocation: SourceLocation? = nil, parameters: [YAMLPair]
    ) {
        self.id = id
        self.type = type
        self.needs = needs
        self.needsLocation = needsLocation
        self.parameters = parameters
    }

    /// The value written for parameter `name`, if any.
    @inlinable package func parameter(_ name: String) -> YAMLValue? {
        parameters.first { $0.key.text == name }?.value
    }

}
