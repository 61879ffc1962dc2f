import ArgumentParser
import Foundation
import TaskGraphCore
import TaskGraphCrypto
import TaskGraphNetwork
import TaskGraphStore

/// The remote cache a `run` shares results through (docs/cache.md, "Remote cache"): each
/// option overrides `$TASKGRAPH_REMOTE_CACHE` and the user's configuration file.
struct RemoteCacheArguments: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "A remote cache on Bazel's HTTP protocol (default: $TASKGRAPH_REMOTE_CACHE, else remote_cache in "
                + "~/.config/taskgraph/config.yaml).",
            valueName: "url"))
    var remoteCache: String?

    @Option(
        help: ArgumentHelp(
            "Whether results are uploaded to the remote cache (default: remote_upload in the configuration, "
                + "else true).",
            valueName: "bool"))
    var remoteUpload: Bool?

    @Option(
        help: ArgumentHelp(
            "A header sent with every remote cache request, e.g. 'Authorization: Bearer …'; may be repeated. Never "
                + "printed.",
            valueName: "header"))
    var remoteHeader: [String] = []

    @Option(
        help: ArgumentHelp(
            "The environment variable holding the key remote records are signed with (HMAC-SHA256); unsigned records "
                + "are then ignored.",
            valueName: "name"))
    var remoteCacheKeyEnv: String?

    @Option(
        help: ArgumentHelp(
            "The longest wait for uploads at the end of a run, e.g. 30s (default 60s).", valueName: "duration"))
    var remoteTimeout: String?

    /// Whether the command line or the environment names a remote cache (the configuration
    /// file, not read yet, may name one too).
    var isNamed: Bool {
        remoteCache != nil || !(ProcessEnvironment.variables["TASKGRAPH_REMOTE_CACHE"] ?? "").isEmpty
    }

    func validate() throws {
        if let remoteTimeout, DurationParser.parse(remoteTimeout) == nil {
            throw ValidationError("--remote-timeout: '\(remoteTimeout)' is not a duration such as 30s or 2m")
        }
        for header in remoteHeader where !header.contains(":") {
            throw ValidationError("--remote-header: expected 'Name: value'")
        }
    }

    /// The remote cache to use, or nil for none; `configuration` is the user's file's.
    /// - Throws: `RemoteCacheSetupError` for a key variable that is not set.
    func settings(
        configuration: CacheConfiguration, environment: [String: String]
    ) throws(RemoteCacheSetupError) -> RemoteCacheSettings? {
        guard
            let url = remoteCache ?? environment["TASKGRAPH_REMOTE_CACHE"].flatMap({ $0.isEmpty ? nil : $0 })
                ?? configuration.remoteCache
        else { return nil }
        guard url.lowercased().hasPrefix("http://") || url.lowercased().hasPrefix("https://") else {
            throw .notHTTP(url)
        }
        let headers = try (configuration.remoteHeaders + remoteHeader).map { header throws(RemoteCacheSetupError) in
            try Self.substituted(header, environment: environment)
        }
        // A cluster worker's, from its driver (docs/cluster.md, "Credentials"): substituted there.
        let inherited = environment[RemoteCacheJobExchange.headersVariable]?.split(separator: "\n").map(String.init)
        var secret: String?
        let keyVariable = remoteCacheKeyEnv ?? configuration.remoteCacheKeyEnvironment
        if let name = keyVariable {
            guard let value = environment[name], !value.isEmpty else { throw .keyNotSet(name) }
            secret = value
        }
        return RemoteCacheSettings(
            url: url, headers: headers + (inherited ?? []), uploads: remoteUpload ?? configuration.remoteUpload,
            keyVariable: keyVariable, secret: secret,
            timeout: remoteTimeout.flatMap(DurationParser.parse) ?? .seconds(60))
    }

    /// `header` with each `${env.NAME}` replaced by that variable's value.
    /// - Throws: `RemoteCacheSetupError.headerVariableNotSet`.
    static func substituted(_ header: String, environment: [String: String]) throws(RemoteCacheSetupError) -> String {
        var result = ""
        var rest = Substring(header)
        while let start = rest.range(of: "${env.") {
            guard let end = rest[start.upperBound...].firstIndex(of: "}") else { break }
            let name = String(rest[start.upperBound..<end])
            guard let value = environment[name] else { throw .headerVariableNotSet(name) }
            result += rest[..<start.lowerBound] + value
            rest = rest[rest.index(after: end)...]
        }
        return result + rest
    }
}

/// What `RemoteCacheArguments` resolved to.
struct RemoteCacheSettings {
    let url: String
    /// `Name: value` lines, values substituted (secrets: never shown).
    let headers: [String]
    let uploads: Bool
    /// The variable holding the signing key, if records are signed.
    let keyVariable: String?
    /// The signing key's value, if records are signed.
    let secret: String?
    /// The longest wait for uploads at the end of a run.
    let timeout: Duration
}

/// Why the remote cache cannot be set up as configured.
enum RemoteCacheSetupError: Error, CustomStringConvertible {
    /// The signing key's variable is not set.
    case keyNotSet(String)
    /// A header names `${env.NAME}` for a variable that is not set.
    case headerVariableNotSet(String)
    /// The cache's URL is not an `http://` or `https://` one.
    case notHTTP(String)

    var description: String {
        switch self {
        case .keyNotSet(let name): "the remote cache's signing key variable \(name) is not set"
        case .headerVariableNotSet(let name): "a remote cache header names ${env.\(name)}, which is not set"
        case .notHTTP(let url): "the remote cache '\(url)' is not an http:// or https:// URL"
        }
    }
}

extension HTTPCacheClient: RemoteCacheClient {}

extension HMACSigner: RecordSigner {}
