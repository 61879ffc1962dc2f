import Foundation

/// The checked parameters of one operation instance, defaults filled in.
public struct Parameters: Hashable, Sendable, Codable {
    /// Values by parameter name.
    public var values: [String: ParameterValue]

    /// Creates a parameter set.
    public init(_ values: [String: ParameterValue] = [:]) {
        self.values = values
    }

    /// The parameters of `values` that are set (not nil): how the Swift types of the built-in
    /// operations pass their optional arguments.
    public init(setting values: [String: ParameterValue?]) {
        self.values = values.compactMapValues { $0 }
    }

    /// The string value of `name`, if set.
    public func string(_ name: String) -> String? {
        if case .string(let text) = values[name] { return text }
        return nil
    }

    /// The integer value of `name`, if set.
    public func integer(_ name: String) -> Int? {
        if case .integer(let number) = values[name] { return number }
        return nil
    }

    /// The numeric value of `name` (integers widen), if set.
    public func number(_ name: String) -> Double? {
        switch values[name] {
        case .number(let number): number
        case .integer(let number): Double(number)
        default: nil
        }
    }

    /// The boolean value of `name`, if set.
    public func boolean(_ name: String) -> Bool? {
        if case .boolean(let flag) = values[name] { return flag }
        return nil
    }

    /// The duration value of `name`, if set.
    public func duration(_ name: String) -> Duration? {
        if case .duration(let duration) = values[name] { return duration }
        return nil
    }

    /// The list value of `name`, if set.
    public func list(_ name: String) -> [String]? {
        if case .list(let items) = values[name] { return items }
        return nil
    }

    /// The map value of `name`, if set.
    public func map(_ name: String) -> [String: String]? {
        if case .map(let pairs) = values[name] { return pairs }
        return nil
    }
}
