import ArgumentParser
import TaskGraphReporting
import TaskGraphStore

/// `taskgraph cache verify`: hashes every blob, removing damaged entries.
struct CacheVerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Hash every blob; remove those that do not match their digest and records naming a missing blob.")

    @OptionGroup var cache: CacheArguments

    func run() async throws {
        try await CacheArguments.reportingStoreErrors {
            let report = try await cache.inspectedStore().verify()
            CacheCommand.warnAboutLinks(report.linksSkipped)
            TextOutput.standardOutput.write(Self.render(report))
            TextOutput.standardOutput.flush()
        }
    }

    /// `checked 3 blobs and 3 records: removed 1 corrupt blob and 1 record`.
    static func render(_ report: VerificationReport) -> String {
        "checked \(CacheCommand.plural(report.blobsChecked, "blob")) and "
            + "\(CacheCommand.plural(report.recordsChecked, "record")): "
            + "removed \(CacheCommand.plural(report.corruptBlobsRemoved, "corrupt blob")) and "
            + "\(CacheCommand.plural(report.recordsRemoved, "record"))\n"
    }
}
