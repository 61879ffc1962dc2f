/// A pipeline file as read and checked key by key, before its graph is planned.
struct PipelineSpec {
    /// The file the pipeline came from, as the user named it.
    var file: String
    /// The pipeline's name (`name:`, or the file name without extension).
    var name: String
    /// Where outputs go, relative to the current directory (`output:`), if set.
    var output: Located<String>?
    /// Depths of named pools declared in the file.
    var pools: [String: Located<Int>]
    /// Variables and environment for `${…}`.
    var variables: Variables
    /// Operations in file order.
    var operations: [OperationSpec]
    /// `executor:`, where operations run (`local` or a registered executor's name), if set.
    var executor: Located<String>? = nil
    /// `store:`, the store directory relative to the current directory, if set.
    var store: Located<String>? = nil
    /// The variables of each included file, in the order they were read: an operation of
    /// scope `n > 0` substitutes with `includedScopes[n - 1]` (`include:`).
    var includedScopes: [Variables] = []
    /// The files included, directly or not, as diagnostics name them, in the order they were read.
    var includedFiles: [String] = []

    /// The variables operation `index`'s parameters are substituted with: its file's.
    func variables(of index: Int) -> Variables {
        let scope = operations[index].scope
        return scope == 0 ? variables : includedScopes[scope - 1]
    }
}

/// One entry of `operations:` as written.
struct OperationSpec {
    /// The operation id (the mapping key).
    var id: Located<String>
    /// The `op:` value, if present.
    var type: Located<String>?
    /// The `needs:` entries.
    var needs: [Located<String>]
    /// Where `needs:` is written, for errors about the dependencies as a whole.
    var needsLocation: SourceLocation?
    /// The `foreach:` as read, if the operation has `foreach`.
    var foreach: ForeachSpec?
    /// The engine settings (`retries:`, `timeout:`, `pool:`, `cache:`, `priority:`, `exclusive:`,
    /// `when:`, `executor:` and the cluster resources) after applying `defaults:`: how the engine
    /// treats the operation's instances.
    var settings = NodeSettings()
    /// Where the pool was named (in the operation or under `defaults:`), if it was.
    var poolLocation: SourceLocation?
    /// Where `when:` was written, if it was.
    var whenLocation: SourceLocation?
    /// `input:`, the dependency chosen as input.
    var input: Located<String>?
    /// `description:`, what the operation is for, if written.
    var description: String?
    /// The operation type's own parameters as written, in file order (keys are unique). A list,
    /// not a dictionary: an operation sets a handful, and most operations are read only once.
    /// (Not the mapping's own list: keeping every operation's whole mapping alive until the
    /// graph is planned cost more memory than these small copies.)
    var parameters: [YAMLPair]
    /// Whose variables its parameters use: 0 for the pipeline file's, `n` for the `n`th
    /// included file's (`PipelineSpec.variables(of:)`).
    var scope = 0

    /// The value written for parameter `name`, if any.
    func parameter(_ name: String) -> YAMLValue? {
        parameters.first { $0.key.text == name }?.value
    }

}
