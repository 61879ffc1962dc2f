import Foundation
import TaskGraphCore

/// Strings that many nodes share (type and parameter names, directories, settings), kept once
/// in a plan and named by their index.
struct SharedStrings {
    private(set) var all: [String] = []
    private var indices: [String: UInt32] = [:]
    private(set) var byteCount = 0
    private var settingsIndices: [NodeSettings: UInt32] = [:]
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    /// The index of the JSON of `settings`, added if new; nil if it cannot be encoded.
    mutating func index(of settings: NodeSettings) -> UInt32? {
        if let index = settingsIndices[settings] { return index }
        guard let json = try? encoder.encode(settings) else { return nil }
        let index = index(of: String(decoding: json, as: UTF8.self))
        settingsIndices[settings] = index
        return index
    }

    /// The index of `string`, added if new.
    mutating func index(of string: String) -> UInt32 {
        if let index = indices[string] { return index }
        let index = UInt32(all.count)
        all.append(string)
        indices[string] = index
        byteCount += string.utf8.count + 8
        return index
    }
}
