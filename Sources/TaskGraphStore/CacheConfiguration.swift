import Foundation
import TaskGraphCore

/// The user's settings for the store, from `$XDG_CONFIG_HOME/taskgraph/config.yaml` (else
/// `~/.config/taskgraph/config.yaml`): simple `key: value` lines, `#` comments. Keys this build
/// does not know are ignored (a newer taskgraph may have written them).
///
/// ```yaml
/// cache_max_size: 20GiB
/// remote_cache: http://cache.example.org:8080/taskgraph
/// remote_upload: false
/// remote_cache_key_env: TASKGRAPH_CACHE_KEY
/// remote_headers:
///   Authorization: Bearer ${env.CACHE_TOKEN}
/// ```
public struct CacheConfiguration: Hashable, Sendable {
    /// The size bound when nothing sets one: 5 GiB.
    public static let defaultMaxSize: Int64 = 5 << 30

    /// The most bytes the store may hold after a run (`cache_max_size`).
    public var maxSize: Int64
    /// The remote cache's URL (`remote_cache`), if any.
    public var remoteCache: String?
    /// Whether results are uploaded to it (`remote_upload`, default true).
    public var remoteUpload = true
    /// Headers sent to it (`remote_headers:`, one `Name: value` per indented line below it),
    /// values as written: `${env.NAME}` is substituted by the CLI.
    public var remoteHeaders: [String] = []
    /// The environment variable holding the key its records are signed with
    /// (`remote_cache_key_env`).
    public var remoteCacheKeyEnvironment: String?

    /// Settings with `maxSize`.
    public init(maxSize: Int64 = CacheConfiguration.defaultMaxSize) {
        self.maxSize = maxSize
    }

    /// The configuration file's path: `$XDG_CONFIG_HOME/taskgraph/config.yaml` (when absolute),
    /// else `$HOME/.config/taskgraph/config.yaml`; nil without either. Reads only `environment`.
    public static func file(environment: [String: String]) -> String? {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            return config + "/taskgraph/config.yaml"
        }
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
            guard case .readFailed(_, let reason) = error else {
                throw .unreadableConfiguration(file: file, reason: "\(error)")
            }
            throw .unreadableConfiguration(file: file, reason: reason)
        }
        return try parse(String(decoding: data, as: UTF8.self), file: file)
    }

    /// The settings in `text`, the contents of `file`.
    /// - Throws: `StoreError.invalidConfiguration` naming `file` and the line.
    public static func parse(_ text: String, file: String) throws(StoreError) -> CacheConfiguration {
        var configuration = CacheConfiguration()
        var inHeaders = false
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = uncommented(rawLine).trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            if inHeaders, rawLine.first == " " || rawLine.first == "\t" {
                configuration.remoteHeaders.append(line)
                continue
            }
            inHeaders = false
            guard let colon = line.firstIndex(of: ":") else {
                throw .invalidConfiguration(
                    file: file, line: index + 1, reason: "expected 'key: value', found '\(line)'")
            }
            let key = line[..<colon].trimmingCharacters(in: .whitespaces)
            let value = unquoted(line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            switch key {
            case "remote_cache": configuration.remoteCache = value.isEmpty ? nil : value
            case "remote_cache_key_env": configuration.remoteCacheKeyEnvironment = value.isEmpty ? nil : value
            case "remote_headers": inHeaders = value.isEmpty
            case "remote_upload":
                guard let upload = ["true": true, "false": false][value] else {
                    throw .invalidConfiguration(
                        file: file, line: index + 1, reason: "remote_upload: expected true or false, found '\(value)'")
                }
                configuration.remoteUpload = upload
            default: break
            }
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
