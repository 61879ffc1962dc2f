import OperationTestSupport
import TaskGraphReporting
import Testing

@testable import TaskGraphCore
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
        #expect(
            RedactedURL.redactAll(in: "URL rejected: \(url) and ann:hunter2", url: url)
                == "URL rejected: https://example.com/x and ***")
    }

    @Test func dryRunHidesURLCredentialsAndSecretHeaders() throws {
        let graph = try plannedGraph(
            """
            version: 1
            operations:
              fetch:
                op: download
                url: https://ann:hunter2@example.com/data.bin
                headers: {Authorization: "Bearer s3cret", X-Api-Key: k3y, Accept: text/plain}
            """, registry: .network)
        #expect(
            PlanPrinter(graph: graph).render() == """
                plan: 1 operation in 1 level
                level 1:
                  fetch  (download, connect_timeout=30s, headers={Accept: text/plain, Authorization: ***, X-Api-Key:\
                 ***}, max_bytes=268435456, stall_timeout=30s, url=https://example.com/data.bin)

                """)
    }
}

/// Query values of parameters whose names look secret are redacted like userinfo.
struct QueryRedactionTests {
    @Test(arguments: [
        ("https://example.com/a?token=abc123&page=2", "https://example.com/a?token=***&page=2"),
        (
            "https://s3.example.com/o?X-Amz-Signature=f00d&X-Amz-Date=1",
            "https://s3.example.com/o?X-Amz-Signature=***&X-Amz-Date=1"
        ),
        (
            "https://example.com/?apiKey=k&sig=s&password=p#top",
            "https://example.com/?apiKey=***&sig=***&password=***#top"
        ),
        (
            "https://example.com/?monkey=banana&keyboard=qwerty&token=",
            "https://example.com/?monkey=banana&keyboard=qwerty&token="
        ),
    ])
    func secretQueryValuesAreHidden(url: String, shown: String) {
        #expect(RedactedURL.redact(url) == shown)
    }

    @Test func messagesQuotingTheURLLoseTheSecretQueryValue() {
        let url = "https://example.com/data?access_token=s3cr3t"
        #expect(
            RedactedURL.redactAll(in: "Could not resolve \(url); access_token=s3cr3t", url: url)
                == "Could not resolve https://example.com/data?access_token=***; access_token=***")
    }

    @Test func dryRunHidesSecretQueryValues() throws {
        let graph = try plannedGraph(
            """
            version: 1
            operations:
              fetch: {op: download, url: "https://example.com/data.bin?token=s3cr3t&v=2"}
            """, registry: .network)
        let plan = PlanPrinter(graph: graph).render()
        #expect(plan.contains("url=https://example.com/data.bin?token=***&v=2"))
        #expect(!plan.contains("s3cr3t"))
    }
}
