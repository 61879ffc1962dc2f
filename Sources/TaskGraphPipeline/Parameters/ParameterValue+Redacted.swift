extension ParameterValue {
    /// Names of map entries (request headers, environment variables) whose values are secrets.
    private static let secretNameParts = ["auth", "cookie", "token", "secret", "password", "key"]

    /// The value as plans and logs may show it: URLs without `user:password@`, and the values of
    /// map entries whose names suggest secrets (`Authorization`, `API_TOKEN`, …) as `***`.
    public var redacted: ParameterValue {
        switch self {
        case .string(let text): .string(RedactedURL.redact(text))
        case .list(let items): .list(items.map(RedactedURL.redact))
        case .map(let pairs):
            .map(
                pairs.reduce(into: [:]) { result, pair in
                    let name = pair.key.lowercased()
                    result[pair.key] =
                        Self.secretNameParts.contains { name.contains($0) } ? "***" : RedactedURL.redact(pair.value)
                })
        case .integer, .number, .boolean, .duration: self
        }
    }
}
