import ArgumentParser
import Foundation
import TaskGraphCore
import TaskGraphReporting
import TaskGraphStore

/// `taskgraph cache gc`: removes the least recently used entries beyond a size or an age.
struct CacheGCCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gc",
        abstract:
            "Remove least recently used entries beyond the size bound, and entries unused for longer than an age.",
        discussion: """
            Also removes damaged records, records naming a missing blob, blobs no record names and \
            leftovers of interrupted writes. Nothing written in the last 10 minutes is removed, so \
            a run beside it is never disturbed.
            """)

    @Option(
        help: ArgumentHelp(
            "Keep the cache at or below this size, e.g. 5GiB, 500MB, 1G (default: cache_max_size in the configuration "
                + "file, else 5GiB).",
            valueName: "size"))
    var maxSize: String?

    @Option(
        help: ArgumentHelp(
            "Also remove entries unused for longer than this, e.g. 30d, 12h, 90m.", valueName: "duration"))
    var maxAge: String?

    @OptionGroup var cache: CacheArguments

    func validate() throws {
        if let maxSize {
            do {
                _ = try ByteSize.parse(maxSize)
            } catch {
                throw ValidationError("--max-size: \(error)")
            }
        }
        if let maxAge, Self.age(maxAge) == nil {
            throw ValidationError("--max-age: '\(maxAge)' is not a duration such as 30d, 12h or 90m")
        }
    }

    func run() async throws {
        try await CacheArguments.reportingStoreErrors {
            let bound = try await CacheArguments.maxSize(option: maxSize)
            let report = try await cache.inspectedStore().collectGarbage(
                maxSize: bound, maxAge: maxAge.flatMap(Self.age))
            CacheCommand.warnAboutLinks(report.linksSkipped)
            TextOutput.standardOutput.write(
                Self.render(report) + Self.nothingRemovedReason(report, bound: bound, maxAge: maxAge))
            TextOutput.standardOutput.flush()
        }
    }

    /// `removed 2 records, 3 blobs and 1 temporary file: 12.0 kB -> 4.0 kB`, naming outdated
    /// snapshots and plans too when there were any.
    static func render(_ report: GarbageCollectionReport) -> String {
        var removed = [
            CacheCommand.plural(report.recordsRemoved, "record"), CacheCommand.plural(report.blobsRemoved, "blob"),
            CacheCommand.plural(report.temporariesRemoved, "temporary file"),
        ]
        let outdated = report.outdatedRemoved
        if outdated > 0 {
            removed.append(
                "\(outdated) outdated snapshot\(outdated == 1 ? "" : "s") or plan\(outdated == 1 ? "" : "s")")
        }
        return "removed \(removed.dropLast().joined(separator: ", ")) and \(removed.last!): "
            + "\(ByteCountText.format(report.sizeBefore)) -> \(ByteCountText.format(report.sizeAfter))\n"
    }

    /// Why a collection that removed nothing did not: the size bound, and the grace period that
    /// protects what a run may be using from any age asked for; empty when it removed something.
    static func nothingRemovedReason(_ report: GarbageCollectionReport, bound: Int64, maxAge: String?) -> String {
        guard report.recordsRemoved + report.blobsRemoved + report.temporariesRemoved + report.outdatedRemoved == 0
        else { return "" }
        let minutes = Int(ContentStore.gracePeriod / 60)
        return "nothing to remove: \(ByteCountText.format(report.sizeBefore)) is within the bound of "
            + "\(ByteCountText.format(bound)), and entries written or used in the last \(minutes) minutes are kept "
            + (maxAge == nil ? "always" : "whatever --max-age says") + " (a run may be using them)\n"
    }

    /// A duration as `DurationParser` reads it, or a number of days: `30d`; nil beyond
    /// `DurationParser.largestSeconds`.
    static func age(_ text: String) -> Duration? {
        if text.hasSuffix("d"), let days = Double(text.dropLast()), days >= 0, days.isFinite {
            return days * 86_400 <= DurationParser.largestSeconds ? .seconds(days * 86_400) : nil
        }
        return DurationParser.parse(text)
    }
}
