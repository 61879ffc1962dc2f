import Foundation
import TaskGraphCore

/// The user's settings for the store, from `$XDG_CONFIG_HOME/taskgraph/config.yaml` (else
/// `~/.config/taskgraph/config.yaml`): simple `key: value` lines, `#` comments. Keys this build
/// does not know are ignored (a newer taskgraph may have written them).
///
/// ```yaml
/// cache_max_size: 20GiB
/// ```
public struct CacheConfiguration: Hashable, Sendable {
    /// The size bound when nothing sets one: 5 GiB.
    public static let defaultMaxSize: Int64 = 5 << 30

    /// The most bytes the store may hold after a run (`cache_max_size`).
    public var maxSize: Int64

    /// Settings with `maxSize`.
    public init(maxSize: Int64 = CacheConfiguration.defaultMaxSize) {
        self.maxSize = maxSize
    }

    /// The configuration file's path: `$XDG_CONFIG_HOME/taskgraph/config.yaml` (when absolute),
    /// else `$HOME/.config/taskgraph/config.yaml`; nil without either. Reads only `environment`.
    public static func file(environment: [String: String]) -> String? {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config + "/taskgraph/config.yaml" }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.config/taskgraph/config.yaml" }
        return nil
    }

    /// The settings in the user's configuration file, or the defaults when there is none.
    /// Blocking (it reads the file).
    /// - Throws: `StoreError.invalidConfiguration` naming the file and line,
    ///   `StoreError.unreadableConfiguration`.
    public static func load(environment: [String: String]) throws(StoreError) -> CacheConfiguration {
        guard let file = file(environment: environment) else { return CacheConfiguration() }
        guard access(file, F_OK) == 0 else { return CacheConfiguration() }
        let data: Data
        do {
            data = try FileIO.read(file)
        } catch {
            guard case .readFailed(_, let reason) = error else { throw .unreadableConfiguration(file: file, reason: "\(error)") }
            throw .unreadableConfiguration(file: file, reason: reason)
        }
        return try parse(String(decoding: data, as: UTF8.self), file: file)
    }

    /// The settings in `text`, the contents of `file`.
    /// - Throws: `StoreError.invalidConfiguration` naming `file` and the line.
    public static func parse(_ text: String, file: String) throws(StoreError) -> CacheConfiguration {
        var configuration = CacheConfiguration()
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = uncommented(rawLine).trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            guard let colon = line.firstIndex(of: ":") else {
                throw .invalidConfiguration(file: file, line: index + 1, reason: "expected 'key: value', found '\(line)'")
            }
            let key = line[..<colon].trimmingCharacters(in: .whitespaces)
            let value = unquoted(line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            guard key == "cache_max_size" else { continue }
            do {
                configuration.maxSize = try ByteSize.parse(value)
            } catch {
                throw .invalidConfiguration(file: file, line: index + 1, reason: "cache_max_size: \(error)")
            }
        }
        return configuration
    }

    /// `line` without a comment: from a `#` at its start or after a space.
    private static func uncommented(_ line: Substring) -> Substring {
        var previous: Character = " "
        for index in line.indices {
            if line[index] == "#", previous == " " || previous == "\t" { return line[..<index] }
            previous = line[index]
        }
        return line
    }

    /// `value` without one pair of surrounding quotes.
    private static func unquoted(_ value: String) -> String {
        guard value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first else {
            return value
        }
        return String(value.dropFirst().dropLast())
    }
}
