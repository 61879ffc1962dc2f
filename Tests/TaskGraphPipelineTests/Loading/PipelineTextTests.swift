import Foundation
import OperationTestSupport
import Testing

@testable import TaskGraphCore

/// A pipeline file's bytes must be UTF-8 text without NUL: the first offending byte is located,
/// another Unicode encoding is named, nothing reaches a program as U+FFFD.
struct PipelineTextTests {
    /// The diagnostics of loading `bytes` from a real file, `p.yaml`.
    private func diagnostics(ofFileWith bytes: [UInt8]) throws -> [String] {
        let directory = try makeScratchDirectory().path
        let file = directory + "/p.yaml"
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        do {
            _ = try Pipeline.load(file: file, options: PipelineOptions(environment: [:], outputDirectory: directory))
            return []
        } catch {
            return error.diagnostics.map { $0.description.replacingOccurrences(of: directory + "/", with: "") }
        }
    }

    private let header = Array("version: 1\noperations:\n".utf8)

    @Test func invalidUTF8IsLocatedInsteadOfReplaced() throws {
        let line = Array("  e: {op: exec, command: [echo, \"x".utf8) + [0xFF, 0xFE] + Array("y\"]}\n".utf8)
        #expect(
            try diagnostics(ofFileWith: header + line) == [
                "p.yaml:3:35: error: invalid UTF-8 byte sequence; YAML text must be valid UTF-8"
            ])
    }

    @Test func aNULByteIsLocatedWhereItIs() throws {
        let lines =
            Array("  e: {op: exec, command: [echo]}\n  f: {op: exec,".utf8) + [0] + Array(" command: [x]}\n".utf8)
        #expect(
            try diagnostics(ofFileWith: header + lines) == [
                "p.yaml:4:16: error: the file holds a NUL byte, which YAML text may not contain"
            ])
    }

    @Test func utf16AndUTF32FilesAreNamedAsSuch() throws {
        let units: [UInt8] = "version: 1\n".utf16.flatMap { unit -> [UInt8] in [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let utf16: [UInt8] = [0xFF, 0xFE] + units
        #expect(
            try diagnostics(ofFileWith: utf16) == [
                "p.yaml:1:1: error: the file is encoded as UTF-16LE; taskgraph reads UTF-8 pipeline files "
                    + "(convert it, e.g. with 'iconv -f UTF-16LE -t UTF-8')"
            ])
        #expect(
            try diagnostics(ofFileWith: [0x00, 0x00, 0xFE, 0xFF, 0, 0, 0, 0x76]).first?.contains("UTF-32BE") == true)
    }

    @Test func aUTF8ByteOrderMarkAndNonASCIITextAreRead() throws {
        let text = "version: 1\noperations:\n  e: {op: exec, command: [echo, \"grüße ✓\"]}\n"
        #expect(try diagnostics(ofFileWith: [0xEF, 0xBB, 0xBF] + Array(text.utf8)) == [])
    }

    @Test func aDeviceAsThePipelineFileIsRefused() {
        do {
            _ = try Pipeline.load(file: "/dev/zero")
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "/dev/zero:1:1: error: cannot read '/dev/zero': not a regular file (a device)")
        }
    }
}
