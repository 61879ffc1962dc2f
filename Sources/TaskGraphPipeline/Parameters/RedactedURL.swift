/// URLs as messages show them: without the `user:password@` part, and with the values of query
/// parameters whose names look secret (`token`, `key`, `sig`, `password`…) replaced by `***`.
package enum RedactedURL {
    /// `url` without credentials: `https://user:secret@host/a?token=t&page=2` becomes
    /// `https://host/a?token=***&page=2`.
    package static func redact(_ url: String) -> String {
        // Without `@` there is no user information, without `?` no query: most values (a
        // command's words, paths) are left as they are without a search.
        guard url.utf8.contains(where: { $0 == UInt8(ascii: "@") || $0 == UInt8(ascii: "?") }) else { return url }
        var redacted = withoutUserinfo(url)
        for (pair, replacement) in secretQueryPairs(redacted) {
            redacted = redacted.replacingOccurrences(of: pair, with: replacement)
        }
        return redacted
    }

    /// Words that make a query parameter's name secret, as a whole word of the name
    /// (`access_token`, `X-Amz-Signature`) or anywhere in it for the longer ones (`apiKey`).
    private static let secretWords: Set<String> = [
        "token", "key", "sig", "signature", "secret", "password", "passwd", "pass", "pwd", "auth",
        "credential", "credentials", "session", "apikey",
    ]
    private static let secretParts = ["token", "secret", "password", "apikey", "signature", "credential"]

    /// Whether a query parameter (or a variable) called `name` holds a secret.
    package static func isSecret(_ name: String) -> Bool {
        let lowered = name.lowercased()
        let words = lowered.split { !$0.isLetter && !$0.isNumber }.map(String.init)
        return words.contains(where: secretWords.contains) || secretParts.contains { lowered.contains($0) }
    }

    /// The `name=value` pairs of `url`'s query with a secret name and a value, each with what
    /// replaces it (`name=***`).
    private static func secretQueryPairs(_ url: String) -> [(pair: String, replacement: String)] {
        guard let queryStart = url.firstIndex(of: "?") else { return [] }
        let query = url[url.index(after: queryStart)...].prefix { $0 != "#" }
        return query.split(separator: "&").compactMap { pair in
            guard let equals = pair.firstIndex(of: "="), pair.index(after: equals) < pair.endIndex,
                isSecret(String(pair[..<equals]))
            else { return nil }
            return (String(pair), String(pair[...equals]) + "***")
        }
    }

    /// `url` without its `user:password@` part.
    private static func withoutUserinfo(_ url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return url }
        let authorityStart = schemeEnd.upperBound
        let rest = url[authorityStart...]
        let authorityEnd = rest.firstIndex { "/?#".contains($0) } ?? url.endIndex
        guard let at = url[authorityStart..<authorityEnd].lastIndex(of: "@") else { return url }
        return String(url[..<authorityStart]) + String(url[url.index(after: at)...])
    }
}

extension RedactedURL {
    /// `text` with every appearance of `url`, of its `user:password` part and of its secret
    /// query pairs removed.
    package static func redactAll(in text: String, url: String) -> String {
        let redacted = redact(url)
        guard redacted != url else { return text }
        var result = text.replacingOccurrences(of: url, with: redacted)
        let schemeEnd = url.range(of: "://")?.upperBound ?? url.startIndex
        let authorityEnd = url[schemeEnd...].firstIndex { "/?#".contains($0) } ?? url.endIndex
        if let at = url[schemeEnd..<authorityEnd].lastIndex(of: "@") {
            let userinfo = String(url[schemeEnd..<at])
            if !userinfo.isEmpty { result = result.replacingOccurrences(of: userinfo, with: "***") }
        }
        for (pair, replacement) in secretQueryPairs(url) {
            result = result.replacingOccurrences(of: pair, with: replacement)
        }
        return result
    }
}

extension RedactedURL {
    /// The secrets in `url`: its `user:password` part and the values of its secret query
    /// parameters, each as written; none when it is not a URL or holds none.
    package static func secrets(in url: String) -> [String] {
        guard let schemeEnd = url.range(of: "://")?.upperBound else { return [] }
        var secrets: [String] = []
        let authorityEnd = url[schemeEnd...].firstIndex { "/?#".contains($0) } ?? url.endIndex
        if let at = url[schemeEnd..<authorityEnd].lastIndex(of: "@"), schemeEnd < at {
            secrets.append(String(url[schemeEnd..<at]))
        }
        for (pair, _) in secretQueryPairs(url) {
            secrets.append(String(pair.drop { $0 != "=" }.dropFirst()))
        }
        return secrets
    }
}
