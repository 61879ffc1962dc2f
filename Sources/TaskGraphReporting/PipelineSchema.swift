import Foundation
import TaskGraphCore

/// A JSON Schema (2020-12) for pipeline files, generated from the same declarations `validate`
/// uses, for editors (the YAML language server) and other tools.
public struct PipelineSchema {
    /// The operation types to describe.
    public let registry: OperationRegistry

    /// A schema for pipelines using `registry`.
    public init(registry: OperationRegistry = .core) {
        self.registry = registry
    }

    /// The schema as pretty-printed JSON.
    public func render() throws -> String {
        let data = try JSONSerialization.data(withJSONObject: schema(), options: [.prettyPrinted, .sortedKeys])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    private func schema() -> [String: Any] {
        let summaries = Dictionary(
            uniqueKeysWithValues: PipelineKeys.topLevel(for: registry).map { ($0.name, $0.summary) })
        let operationSummaries = Dictionary(
            uniqueKeysWithValues: PipelineKeys.operation(for: registry).map { ($0.name, $0.summary) })
        let stringOrList: [String: Any] = [
            "anyOf": [["type": "string"], ["type": "array", "items": ["type": "string"]]]
        ]
        var common: [String: [String: Any]] = [
            "op": ["enum": registry.sorted.map(\.name)],
            "needs": stringOrList,
            "foreach": [
                "anyOf": [["type": "string"], ["type": "array", "items": ["type": "string"]], ["type": "object"]]
            ],
            "retries": Self.schema(for: .integer(0...100)),
            "timeout": Self.schema(for: .duration),
            "pool": ["type": "string"],
            "input": ["type": "string"],
            "description": ["type": "string"],
            "priority": Self.schema(for: PipelineKeys.priorityType),
            // `true` and `false` are booleans to a YAML reader; `run` is the one word.
            "exclusive": ["anyOf": [["type": "boolean"], ["const": Exclusivity.run.rawValue], Self.variableReference]],
            "when": Self.schema(for: PipelineKeys.whenType),
        ]
        let clusterTypes = ClusterSettings.types(in: registry)
        for (name, type) in clusterTypes { common[name] = Self.schema(for: type) }
        let defaultKeys = Set(["retries", "timeout", "pool"] + clusterTypes.map(\.name))
        let operation: [String: Any] = [
            "type": "object",
            "required": ["op"],
            "properties": common.reduce(into: [String: Any]()) { result, entry in
                result[entry.key] = entry.value.merging(["description": operationSummaries[entry.key] ?? ""]) {
                    old, _ in old
                }
            },
            "allOf": registry.sorted.map { type in
                [
                    "if": ["properties": ["op": ["const": type.name]], "required": ["op"]],
                    "then": [
                        "description": type.summary,
                        "properties": Dictionary(
                            uniqueKeysWithValues: type.parameters.map { ($0.name, Self.schema(for: $0)) }),
                        "required": type.parameters.filter(\.isRequired).map(\.name),
                    ] as [String: Any],
                ] as [String: Any]
            },
            "unevaluatedProperties": false,
        ]
        let topLevel: [String: [String: Any]] = [
            "version": ["const": 1],
            "name": ["type": "string"],
            "description": ["type": "string"],
            "vars": ["type": "object", "additionalProperties": stringOrList],
            "defaults": [
                "type": "object", "additionalProperties": false,
                "properties": common.filter { defaultKeys.contains($0.key) },
            ],
            "pools": ["type": "object", "additionalProperties": ["type": "integer", "minimum": 1, "maximum": 10_000]],
            "output": ["type": "string"],
            "executor": ["enum": registry.executorNames],
            "store": ["type": "string"],
            "operations": [
                "type": "object", "minProperties": 1, "additionalProperties": ["$ref": "#/$defs/operation"],
                "propertyNames": ["pattern": "^[A-Za-z0-9_][A-Za-z0-9_.-]*$"],
            ],
            "include": [
                "type": "object", "propertyNames": ["pattern": "^[A-Za-z0-9_][A-Za-z0-9_-]*$"],
                "additionalProperties": [
                    "anyOf": [
                        ["type": "string"],
                        [
                            "type": "object", "required": ["file"], "additionalProperties": false,
                            "properties": [
                                "file": ["type": "string"],
                                "vars": ["type": "object", "additionalProperties": stringOrList],
                            ],
                        ],
                    ]
                ],
            ],
        ]
        return [
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "taskgraph pipeline (version 1)",
            "type": "object",
            "required": ["version"],
            "anyOf": [["required": ["operations"]], ["required": ["include"]]],
            "additionalProperties": false,
            "properties": topLevel.reduce(into: [String: Any]()) { result, entry in
                result[entry.key] = entry.value.merging(["description": summaries[entry.key] ?? ""]) { old, _ in old }
            },
            "$defs": ["operation": operation],
        ]
    }

    private static func schema(for parameter: ParameterSpec) -> [String: Any] {
        var schema = schema(for: parameter.type)
        schema["description"] = parameter.summary
        if let value = parameter.defaultValue { schema["default"] = jsonValue(value) }
        return schema
    }

    /// A `${…}` reference is accepted wherever a value is, since it is substituted before checks.
    private static var variableReference: [String: Any] { ["type": "string", "pattern": "\\$\\{"] }

    private static func schema(for type: ParameterType) -> [String: Any] {
        switch type {
        case .string, .inputPath, .outputPath:
            return ["type": "string"]
        case .integer(let range):
            var integer: [String: Any] = ["type": "integer", "minimum": range.lowerBound]
            if range.upperBound != .max { integer["maximum"] = range.upperBound }
            return ["anyOf": [integer, variableReference]]
        case .number(let range):
            return [
                "anyOf": [
                    ["type": "number", "minimum": range.lowerBound, "maximum": range.upperBound], variableReference,
                ]
            ]
        case .boolean:
            return ["anyOf": [["type": "boolean"], variableReference]]
        case .duration:
            return [
                "anyOf": [
                    ["type": "number", "minimum": 0],
                    ["type": "string", "pattern": "^(\\d+(\\.\\d+)?(ms|s|m|h))+$|\\$\\{"],
                ]
            ]
        case .choice(let words):
            return ["anyOf": [["enum": words], variableReference]]
        case .namedInteger(let names, let range):
            return [
                "anyOf": [
                    ["enum": ParameterType.sortedNames(names)],
                    [
                        "type": "integer", "minimum": range.lowerBound,
                        "maximum": range.upperBound,
                    ], variableReference,
                ]
            ]
        case .stringList(let minimum):
            return ["type": "array", "items": ["type": "string"], "minItems": minimum]
        case .stringMap:
            return ["type": "object", "additionalProperties": ["type": "string"]]
        }
    }

    private static func jsonValue(_ value: ParameterValue) -> Any {
        switch value {
        case .string(let text): text
        case .integer(let number): number
        case .number(let number): number
        case .boolean(let flag): flag
        case .duration: DurationParser.format(value.durationValue ?? .zero)
        case .list(let items): items
        case .map(let pairs): pairs
        }
    }
}

extension ParameterValue {
    fileprivate var durationValue: Duration? {
        if case .duration(let duration) = self { return duration }
        return nil
    }
}
