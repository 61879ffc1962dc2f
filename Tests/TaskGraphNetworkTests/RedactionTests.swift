import Testing

@testable import TaskGraphCore
import OperationTestSupport
import TaskGraphReporting
@testable import TaskGraphNetwork

/// Credentials never reach messages or `--dry-run` output.
struct RedactionTests {
    @Test(arguments: [
        ("https://ann:hunter2@example.com/a?b=c", "https://example.com/a?b=c"),
        ("http://token@example.com", "http://example.com"),
        ("https://example.com/users/@ann", "https://example.com/users/@ann"),
        ("http://a:b@c@example.com:8080/x", "http://example.com:8080/x"),
        ("data/local file.bin", "data/local file.bin"),
    ])
    func urlsLoseTheirUserinfo(url: String, shown: String) {
        #expect(RedactedURL.redact(url) == shown)
    }

    @Test func curlMessagesLoseTheCredentialsTheyQuote() {
        let url = "https://ann:hunter2@example.com/x"
        #expect(RedactedURL.redactAll(in: "URL rejected: \(url) and ann:hunter2", url: url)
            == "URL rejected: https://example.com/x and ***")
    }

    @Test func dryRunHidesURLCredentialsAndSecretHeaders() throws {
        let graph = try plannedGraph("""
            version: 1
            operations:
              fetch:
                op: download
                url: https://ann:hunter2@example.com/data.bin
                headers: {Authorization: "Bearer s3cret", X-Api-Key: k3y, Accept: text/plain}
            """, registry: .network)
        #expect(PlanPrinter(graph: graph).render() == """
            plan: 1 operation in 1 level
            level 1:
              fetch  (download, connect_timeout=30s, headers={Accept: text/plain, Authorization: ***, X-Api-Key: ***}, max_bytes=268435456, stall_timeout=30s, url=https://example.com/data.bin)

            """)
    }
}
