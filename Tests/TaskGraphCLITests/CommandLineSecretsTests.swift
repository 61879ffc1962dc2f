import Foundation
import Testing

/// The command line in the events' `run_started` and in the HTML report, both meant to be
/// shared: secrets given with `--var` (URL credentials, `token=` values, header values) never
/// appear there.
@Suite struct CommandLineSecretsTests {
    @Test func secretsGivenWithVarAreRedactedInTheEventsAndTheReport() async throws {
        let directory = try fixtureDirectory()
        try write(
            """
            version: 1
            vars:
              source: "http://127.0.0.1:1/x"
              auth: "none"
              t: "x"
            operations:
              get:
                op: download
                url: "${source}?token=${t}"
                headers:
                  Authorization: "${auth}"
            """, to: "fetch.yaml", in: directory)
        let result = try await TaskGraphProcess.run(
            [
                "run", "fetch.yaml", "--no-progress", "--var", "source=http://bob:hunter2@127.0.0.1:1/x",
                "--var=auth=Bearer sekrit99", "--var", "t=tok12345", "--events", "run.jsonl", "--report", "run.html",
            ],
            in: directory)
        #expect(result.status == 1, "the server does not exist: \(result.stderr)")
        let events = try String(contentsOf: directory.appendingPathComponent("run.jsonl"), encoding: .utf8)
        let page = try String(contentsOf: directory.appendingPathComponent("run.html"), encoding: .utf8)
        for secret in ["hunter2", "sekrit99", "tok12345"] {
            #expect(!events.contains(secret), "\(secret) in the events")
            #expect(!page.contains(secret), "\(secret) in the report")
        }
        let started = try #require(events.split(separator: "\n").first)
        #expect(
            started.hasSuffix(
                #""command":["\#(TaskGraphProcess.binary.path)","run","fetch.yaml","--no-progress","--var","#
                    + #""source=http://127.0.0.1:1/x","--var=auth=***","--var","t=***","--events","run.jsonl","#
                    + #""--report","run.html"]}"#
            ))
    }
}
