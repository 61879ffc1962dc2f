/// A `foreach:` as read, before the files its patterns match are listed.
package struct ForeachSpec: Sendable {
    /// Where the items come from.
    package enum Source: Sendable {
        /// Items written in the file or in a list variable, checked.
        case items([ForeachItem])
        /// `{glob: …}`: the files its patterns match, relative to the pipeline file.
        case glob(GlobSource)
        /// `{from: index}`: the items of another operation's result, known once it has run.
        case from(FromSource)
    }

    /// `{from: operation, id_field: …}`.
    package struct FromSource: Sendable {
        /// The operation whose result lists the items.
        package var operation: Located<String>
        /// The field of an object item that is its instance id (default: `name`, else `id`).
        package var idField: String?

        /// The items of `operation`'s result, each identified by `idField`.
        package init(operation: Located<String>, idField: String?) {
            self.operation = operation
            self.idField = idField
        }
    }

    /// `{glob: pattern or [patterns], allow_empty: …}`.
    package struct GlobSource: Sendable {
        /// The patterns as written (variables substituted).
        package var patterns: [Located<String>]
        /// Whether a pattern may match no file.
        package var allowEmpty: Bool

        /// The files `patterns` match.
        package init(patterns: [Located<String>], allowEmpty: Bool) {
            self.patterns = patterns
            self.allowEmpty = allowEmpty
        }
    }

    /// One axis of a matrix: `size: [320, 1024]`.
    package struct Axis: Sendable {
        package var name: Located<String>
        package var source: Source

        /// The axis `name`, whose items come from `source`.
        package init(name: Located<String>, source: Source) {
            self.name = name
            self.source = source
        }
    }

    /// One entry of `exclude:`: the combinations whose item on each named axis is the one given
    /// (by its id or its value).
    package typealias Exclusion = [(axis: Located<String>, item: String)]

    /// What was written.
    package enum Kind: Sendable {
        case single(Source)
        case matrix([Axis], exclude: [Exclusion])
    }

    package var kind: Kind
    /// Where `foreach:` is written.
    package var location: SourceLocation

    /// A `foreach:` of `kind`, written at `location`.
    package init(kind: Kind, location: SourceLocation) {
        self.kind = kind
        self.location = location
    }

    /// The names of its axes in order, if it is a matrix.
    package var matrixAxes: [String]? {
        if case .matrix(let axes, _) = kind { return axes.map(\.name.value) }
        return nil
    }

    /// Where its items come from, when they are another operation's result (`{from: …}`).
    package var from: FromSource? {
        if case .single(.from(let source)) = kind { return source }
        return nil
    }

    /// The patterns its items come from, as written (none for items written out).
    package var globPatterns: [String] {
        let sources: [Source] =
            switch kind {
            case .single(let source): [source]
            case .matrix(let axes, _): axes.map(\.source)
            }
        var patterns: [String] = []
        for case .glob(let glob) in sources { patterns += glob.patterns.map(\.value) }
        return patterns
    }
}
