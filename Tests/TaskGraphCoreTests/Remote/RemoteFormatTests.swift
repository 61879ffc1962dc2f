import Foundation
import Testing

@testable import TaskGraphCore

/// The job file and completion record of docs/cluster.md, byte for byte: a driver and workers of
/// different versions read each other's files, so a change here must be a documented one.
@Suite struct RemoteFormatTests {
    private static let digest = ContentDigest("sha256:" + String(repeating: "ab", count: 32))!

    @Test func aJobFileIsSortedJSONAsDocumented() throws {
        let job = RemoteJob(
            setup: OperationSetup(
                type: "exec", id: "step", parameters: Parameters(), pipelineDirectory: "/p", outputDirectory: "/o"),
            attempt: 2, inputs: [.init(id: "download[lake]", digest: Self.digest)], key: nil, components: nil)
        let text = String(decoding: try job.encoded(), as: UTF8.self)
        #expect(
            text == #"{"attempt":2,"inputs":[{"digest":"\#(Self.digest)","id":"download[lake]"}],"#
                + #""setup":{"dependencies":[],"environment":{},"id":"step","outputDirectory":"/o","#
                + #""parameters":{"values":{}},"pipelineDirectory":"/p","type":"exec"}}"#)
        #expect(try JSONDecoder().decode(RemoteJob.self, from: Data(text.utf8)) == job)
    }

    @Test func aJobCarryingFilesListsThemAsDocumented() throws {
        var job = RemoteJob(
            setup: OperationSetup(
                type: "load", id: "read", parameters: Parameters(), pipelineDirectory: "/p", outputDirectory: "/o"),
            attempt: 1, inputs: [], key: nil, components: nil)
        job.files = [RemoteJob.File(path: "/p/tool.sh", digest: Self.digest, executable: true)]
        let text = String(decoding: try job.encoded(), as: UTF8.self)
        #expect(
            text == #"{"attempt":1,"files":[{"digest":"\#(Self.digest)","executable":true,"path":"/p/tool.sh"}],"#
                + #""inputs":[],"setup":{"dependencies":[],"environment":{},"id":"read","outputDirectory":"/o","#
                + #""parameters":{"values":{}},"pipelineDirectory":"/p","type":"load"}}"#)
        #expect(try JSONDecoder().decode(RemoteJob.self, from: Data(text.utf8)) == job)
    }

    @Test func aFailedCompletionIsItsMessage() throws {
        let completion = RemoteCompletion.failed("'sh' exited with status 3")
        let data = try completion.encoded()
        #expect(String(decoding: data, as: UTF8.self) == #"{"failed":{"_0":"'sh' exited with status 3"}}"#)
        #expect(try RemoteCompletion(encoded: data) == completion)
    }

    @Test func aFusedCompletionListsTheCompletionOfEachOperationThatRan() throws {
        let completion = RemoteCompletion.fused([.failed("'sh' exited with status 3")])
        let data = try completion.encoded()
        #expect(
            String(decoding: data, as: UTF8.self)
                == #"{"fused":{"_0":[{"failed":{"_0":"'sh' exited with status 3"}}]}}"#)
        #expect(try RemoteCompletion(encoded: data) == completion)
        #expect(completion.failure?.step == 0)
        #expect(completion.records == [])
    }
}
