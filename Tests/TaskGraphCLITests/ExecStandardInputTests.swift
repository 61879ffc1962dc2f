import Foundation
import TaskGraphImaging
import Testing

/// `stdin: true`: an `exec` reads its input's bytes (a download, an image encoded in its format)
/// on standard input; `validate` warns about an `exec` that needs data it does not read.
@Suite struct ExecStandardInputTests {
    /// `download -> exec [jq, -c, .photos] -> save`, with python3 for jq.
    @Test func aDownloadedDocumentReachesTheProgramAndItsKey() async throws {
        let directory = try fixtureDirectory()
        try write(
            """
            version: 1
            name: photos
            operations:
              data: {op: download, url: photos.json}
              summary:
                op: exec
                needs: data
                stdin: true
                command: [python3, -c, 'import json, sys; print(json.dumps(json.load(sys.stdin)["photos"]))']
                cache: true
              keep: {op: save, needs: summary, path: photos.txt}
            """, to: "photos.yaml", in: directory)
        var explained: [String] = []
        for photos in [#"["a.jpg", "b.jpg"]"#, #"["a.jpg", "b.jpg"]"#, #"["c.jpg"]"#] {
            try write(#"{"photos": \#(photos), "count": 2}"#, to: "photos.json", in: directory)
            let result = try await TaskGraphProcess.run(
                ["run", "photos.yaml", "--no-progress", "--explain", "--output", "out"], in: directory,
                environment: ["TASKGRAPH_CACHE_DIR": directory.appendingPathComponent("cache").path])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(lines(of: "out/photos.txt", in: directory) == [Substring(photos)])
            explained.append(result.stdout)
        }
        #expect(
            explained == [
                "data: run: new\nsummary: run: new\nkeep: run: new\n",
                "data: cached\nsummary: cached\nkeep: cached\n",
                "data: run: file changed: photos.json\nsummary: run: input changed: data <- file changed: photos.json "
                    + "in data\n"
                    + "keep: run: input changed: summary <- file changed: photos.json in data\n",
            ])
    }

    /// `load -> exec [convert, -, …] -> save`: a decoded image reaches the program encoded in
    /// the format it was decoded from, and what the program prints is saved as an image.
    @Test func anImageReachesTheProgramEncodedInItsFormat() async throws {
        let directory = try fixtureDirectory()
        let image = Image(width: 4, height: 2, color: [200, 100, 50])
        try await ImageCodec.encode(image, as: .png).write(to: directory.appendingPathComponent("in.png"))
        try write(
            """
            version: 1
            name: convert
            operations:
              photo: {op: load, path: in.png}
              gray: {op: grayscale, needs: photo}
              signature:
                op: exec
                needs: gray
                stdin: true
                command: [python3, -c, 'import sys; print(sys.stdin.buffer.read()[:8].hex())']
              copy:
                op: exec
                needs: photo
                stdin: true
                command: [python3, -c, 'import sys; sys.stdout.buffer.write(sys.stdin.buffer.read())']
              keep-signature: {op: save, needs: signature, path: signature.txt}
              keep-copy: {op: save, needs: copy, path: copy.jpg}
            """, to: "convert.yaml", in: directory)
        let result = try await TaskGraphProcess.run(
            ["run", "convert.yaml", "--no-progress", "--output", "out"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(lines(of: "out/signature.txt", in: directory) == ["89504e470d0a1a0a"])
        let copy = try Data(contentsOf: directory.appendingPathComponent("out/copy.jpg"))
        #expect(Array(copy.prefix(3)) == [0xFF, 0xD8, 0xFF], "saved as JPEG")
        let decoded = try await ImageCodec.decode(copy)
        #expect((decoded.width, decoded.height) == (4, 2))
    }

    /// A program that writes all its output before it reads its input neither blocks the run
    /// nor deadlocks: its input is written as it reads, its output read as it writes.
    @Test func aProgramWritingMegabytesBeforeReadingMegabytesFinishes() async throws {
        let directory = try fixtureDirectory()
        try Data(repeating: UInt8(ascii: "x"), count: 8 << 20).write(to: directory.appendingPathComponent("big.bin"))
        try write(
            """
            version: 1
            name: big
            operations:
              big: {op: load, path: big.bin}
              count:
                op: exec
                needs: big
                stdin: true
                command: [python3, -c, 'import sys; sys.stdout.write("y" * 4000000); sys.stdout.write(" %d" %\
             len(sys.stdin.buffer.read()))']
              keep: {op: save, needs: count, path: count.txt}
            """, to: "big.yaml", in: directory)
        let result = try await TaskGraphProcess.run(
            ["run", "big.yaml", "--no-progress", "--output", "out"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let saved = try String(contentsOf: directory.appendingPathComponent("out/count.txt"), encoding: .utf8)
        #expect(saved.hasSuffix("y 8388608"))
        #expect(saved.utf8.count == 4_000_000 + 8)
    }

    /// A program that exits without reading its input is not an error of taskgraph's.
    @Test func aProgramThatReadsNothingSucceeds() async throws {
        let directory = try fixtureDirectory()
        try Data(repeating: 0, count: 1 << 20).write(to: directory.appendingPathComponent("big.bin"))
        try write(
            """
            version: 1
            name: ignore
            operations:
              big: {op: load, path: big.bin}
              ignore: {op: exec, needs: big, stdin: true, command: ['true']}
            """, to: "ignore.yaml", in: directory)
        let result = try await TaskGraphProcess.run(["run", "ignore.yaml", "--no-progress"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test func validateWarnsAboutDataAnExecNeedsButDoesNotRead() async throws {
        let directory = try fixtureDirectory()
        try write(
            """
            version: 1
            name: summary
            operations:
              data: {op: download, url: data.csv}
              photo: {op: load, path: in.png}
              gray: {op: grayscale, needs: photo}
              summary: {op: exec, needs: [data, gray, photo], command: [awk, '{print}']}
              read: {op: exec, needs: data, stdin: true, command: [cat]}
            """, to: "summary.yaml", in: directory)
        try write("", to: "in.png", in: directory)
        let result = try await TaskGraphProcess.run(["validate", "summary.yaml"], in: directory)
        #expect(result.status == 0)
        #expect(
            result.stderr == """
                summary.yaml:7:31: warning: operation 'summary': 'exec' needs 'data', whose result is bytes, but does\
                 not read it; set 'stdin: true' to read it
                summary.yaml:7:37: warning: operation 'summary': 'exec' needs 'gray', whose result is image, but does\
                 not read it; set 'stdin: true' to read it
                1 file valid, 2 warnings

                """)
    }

    @Test func stdinWithoutADependencyProvidingBytesIsAnError() async throws {
        let directory = try fixtureDirectory()
        try write(
            """
            version: 1
            name: alone
            operations:
              first: {op: group}
              alone: {op: exec, stdin: true, command: [cat]}
              after: {op: exec, needs: first, stdin: true, command: [cat]}
            """, to: "alone.yaml", in: directory)
        let result = try await TaskGraphProcess.run(["validate", "alone.yaml"], in: directory)
        #expect(result.status == 2)
        #expect(
            result.stderr == """
                alone.yaml:5:15: error: operation 'alone': 'exec' consumes bytes or image, but the operation has no\
                 'needs'
                alone.yaml:6:28: error: operation 'after': 'exec' consumes bytes or image, but no dependency provides\
                 it ('first' (group) provides nothing)
                2 errors in 1 of 1 file: invalid

                """)
    }
}
