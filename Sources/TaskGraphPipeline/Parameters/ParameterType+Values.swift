extension ParameterType {
    /// `value` as a checked value of this type, as the pipeline planner would make it from the
    /// same text (a whole number for a `number` widens, a name of a `namedInteger` becomes its
    /// number), or nil if it is not one: the wrong kind, out of range, a path that leaves the
    /// output directory, a string holding a NUL character.
    public func accepting(_ value: ParameterValue) -> ParameterValue? {
        switch (self, value) {
        case (.string, .string(let text)), (.inputPath, .string(let text)):
            return Self.isArgumentText(text) ? value : nil
        case (.integer(let range), .integer(let number)):
            return range.contains(number) ? value : nil
        case (.number(let range), .number(let number)):
            return number.isFinite && range.contains(number) ? value : nil
        case (.number, .integer(let number)):
            return accepting(.number(Double(number)))
        case (.boolean, .boolean):
            return value
        case (.duration, .duration(let duration)):
            return duration >= .zero && duration <= .seconds(DurationParser.largestSeconds) ? value : nil
        case (.choice(let words), .string(let word)):
            return words.contains(word) ? value : nil
        case (.namedInteger(_, let range), .integer(let number)):
            return range.contains(number) ? value : nil
        case (.namedInteger(let names, _), .string(let name)):
            return names[name].map(ParameterValue.integer)
        case (.stringList(let minimumCount), .list(let items)):
            return items.count >= minimumCount && items.allSatisfy(Self.isArgumentText) ? value : nil
        case (.stringMap, .map(let pairs)):
            return pairs.values.allSatisfy(Self.isArgumentText) ? value : nil
        case (.outputPath, .string(let path)):
            return Self.isArgumentText(path) && OutputPath.isContained(path) ? value : nil
        default:
            return nil
        }
    }

    /// Whether `text` reaches a program, path or variable whole: a NUL ends it early.
    private static func isArgumentText(_ text: String) -> Bool {
        !text.utf8.contains(0)
    }
}
