/// The fields an operation's parameters use as `${item.field}`.
package enum ItemFields {
    /// The fields named by `${item.field}` in `parameters`' values (lists and mappings
    /// included), sorted; `$${` escapes are not references.
    package static func used(in parameters: [YAMLPair]) -> [String] {
        var fields: Set<String> = []
        var pending = parameters.map(\.value)
        while let value = pending.popLast() {
            switch value {
            case .scalar(let scalar): fields.formUnion(used(in: scalar.text))
            case .sequence(let elements, _): pending += elements
            case .mapping(let pairs, _): pending += pairs.map(\.value)
            }
        }
        return fields.sorted()
    }

    private static func used(in text: String) -> [String] {
        var fields: [String] = []
        var rest = Substring(text)
        while let range = rest.range(of: "${item.") {
            let escaped = range.lowerBound > rest.startIndex && rest[rest.index(before: range.lowerBound)] == "$"
            rest = rest[range.upperBound...]
            guard let end = rest.firstIndex(of: "}") else { break }
            if !escaped { fields.append(String(rest[..<end])) }
            rest = rest[rest.index(after: end)...]
        }
        return fields
    }
}
