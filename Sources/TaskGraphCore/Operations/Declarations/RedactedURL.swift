/// URLs as messages show them: without the `user:password@` part.
package enum RedactedURL {
    /// `url` without credentials: `https://user:secret@host/a` becomes `https://host/a`.
    package static func redact(_ url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return url }
        let authorityStart = schemeEnd.upperBound
        let rest = url[authorityStart...]
        let authorityEnd = rest.firstIndex { "/?#".contains($0) } ?? url.endIndex
        guard let at = url[authorityStart..<authorityEnd].lastIndex(of: "@") else { return url }
        return String(url[..<authorityStart]) + String(url[url.index(after: at)...])
    }
}

extension RedactedURL {
    /// `text` with every appearance of `url`, and of its `user:password` part, removed.
    package static func redactAll(in text: String, url: String) -> String {
        let redacted = redact(url)
        guard redacted != url else { return text }
        var result = text.replacingOccurrences(of: url, with: redacted)
        let schemeEnd = url.range(of: "://")?.upperBound ?? url.startIndex
        if let at = url[schemeEnd...].firstIndex(of: "@") {
            let userinfo = String(url[schemeEnd..<at])
            if !userinfo.isEmpty { result = result.replacingOccurrences(of: userinfo, with: "***") }
        }
        return result
    }
}
