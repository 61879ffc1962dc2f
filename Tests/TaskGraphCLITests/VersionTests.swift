import Testing

/// `taskgraph --version` is answered before the rest of the command starts (see
/// `TaskGraphCommand.main`); it prints what the argument parser would, and nothing else.
@Suite struct VersionTests {
    @Test func versionPrintsTheVersionAlone() async throws {
        let result = try await TaskGraphProcess.run(["--version"], in: try fixtureDirectory())
        #expect(result.status == 0)
        #expect(result.stdout == "0.1.0\n")
        #expect(result.stderr == "")
    }

    @Test func versionAfterOtherArgumentsGoesThroughTheParser() async throws {
        let result = try await TaskGraphProcess.run(["validate", "--version"], in: try fixtureDirectory())
        #expect(result.status == 0)
        #expect(result.stdout == "0.1.0\n")
    }
}
