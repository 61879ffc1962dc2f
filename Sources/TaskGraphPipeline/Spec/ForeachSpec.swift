/// A `foreach:` as read, before the files its patterns match are listed.
struct ForeachSpec: Sendable {
    /// Where the items come from.
    enum Source: Sendable {
        /// Items written in the file or in a list variable, checked.
        case items([ForeachItem])
        /// `{glob: …}`: the files its patterns match, relative to the pipeline file.
        case glob(GlobSource)
        /// `{from: index}`: the items of another operation's result, known once it has run.
        case from(FromSource)
    }

    /// `{from: operation, id_field: …}`.
    struct FromSource: Sendable {
        /// The operation whose result lists the items.
        var operation: Located<String>
        /// The field of an object item that is its instance id (default: `name`, else `id`).
        var idField: String?
    }

    /// `{glob: pattern or [patterns], allow_empty: …}`.
    struct GlobSource: Sendable {
        /// The patterns as written (variables substituted).
        var patterns: [Located<String>]
        /// Whether a pattern may match no file.
        var allowEmpty: Bool
    }

    /// One axis of a matrix: `size: [320, 1024]`.
    struct Axis: Sendable {
        var name: Located<String>
        var source: Source
    }

    /// One entry of `exclude:`: the combinations whose item on each named axis is the one given
    /// (by its id or its value).
    typealias Exclusion = [(axis: Located<String>, item: String)]

    /// What was written.
    enum Kind: Sendable {
        case single(Source)
        case matrix([Axis], exclude: [Exclusion])
    }

    var kind: Kind
    /// Where `foreach:` is written.
    var location: SourceLocation

    /// The names of its axes in order, if it is a matrix.
    var matrixAxes: [String]? {
        if case .matrix(let axes, _) = kind { return axes.map(\.name.value) }
        return nil
    }

    /// Where its items come from, when they are another operation's result (`{from: …}`).
    var from: FromSource? {
        if case .single(.from(let source)) = kind { return source }
        return nil
    }

    /// The patterns its items come from, as written (none for items written out).
    var globPatterns: [String] {
        let sources: [Source] = switch kind {
        case .single(let source): [source]
        case .matrix(let axes, _): axes.map(\.source)
        }
        var patterns: [String] = []
        for case .glob(let glob) in sources { patterns += glob.patterns.map(\.value) }
        return patterns
    }
}
