import Foundation
import OperationTestSupport
import Testing

@testable import TaskGraphCore
@testable import TaskGraphImaging

extension ImagingTests {
    /// The image operations inside pipelines: validation, end-to-end runs, failures.
    @Suite struct ImagePipelineTests {
        /// A fresh output directory.
        private func temporaryDirectory() throws -> String {
            let path = NSTemporaryDirectory() + "taskgraph-imaging-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            return path
        }

        /// Runs `yaml` as a pipeline file in the fixtures folder, writing into `output`.
        private func run(_ yaml: String, output: String) async throws -> RunReport {
            let pipeline = try Pipeline.load(
                text: yaml, file: try fixturePath("test.yaml"),
                options: PipelineOptions(outputDirectory: output, registry: .imaging))
            return await Engine(options: EngineOptions(jobs: 2)).run(pipeline.graph)
        }

        @Test func loadTiltShiftSepiaSaveOnAPhoto() async throws {
            let output = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: output) }
            let report = try await run(
                """
                version: 1
                operations:
                  load: {op: load, path: sunset-320.jpg}
                  tilt: {op: tilt-shift, needs: load, blur_radius: 8}
                  tone: {op: sepia, needs: tilt, intensity: 0.8}
                  save: {op: save, needs: tone, path: out/sunset.jpg}
                  save-png: {op: save, needs: tone, path: sunset.png}
                """, output: output)
            #expect(report.nodes.map(\.outcome) == Array(repeating: .succeeded, count: 5))
            #expect(report.nodes.map(\.summary).prefix(3) == ["15.6 kB", "320×213 RGB", "320×213 RGB"])
            let original = try await ImageCodec.decode(try fixture("sunset-320.jpg"))
            let jpeg = try Data(contentsOf: URL(fileURLWithPath: output + "/out/sunset.jpg"))
            #expect(ImageFormat.sniff(jpeg) == .jpeg)
            let result = try await ImageCodec.decode(jpeg)
            #expect(result.summary == "320×213 RGB")
            let png = try await ImageCodec.decode(try Data(contentsOf: URL(fileURLWithPath: output + "/sunset.png")))
            let toned = try await SepiaKernel.apply(to: original, intensity: 0.8)
            let blurredToned = try await SepiaKernel.apply(
                to: try await GaussianBlur.apply(to: original, sigma: 8), intensity: 0.8)
            // The focus band is the sepia of the original; the top and bottom, of its blur.
            #expect(rows(95..<118, of: png) == rows(95..<118, of: toned))
            #expect(rows(0..<40, of: png) == rows(0..<40, of: blurredToned))
            #expect(rows(175..<213, of: png) == rows(175..<213, of: blurredToned))
            #expect(rows(0..<40, of: png) != rows(0..<40, of: toned))
            #expect(psnr(rows(0..<213, of: result), png.pixels) > 35)
        }

        @Test func brokenImagesFailTheOperationWithTheCodecMessage() async throws {
            let output = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: output) }
            let truncated = try fixture("sunset-320.jpg").prefix(4000)
            try truncated.write(to: URL(fileURLWithPath: output + "/truncated.jpg"))
            try Data().write(to: URL(fileURLWithPath: output + "/empty.jpg"))
            let report = try await run(
                """
                version: 1
                operations:
                  truncated: {op: load, path: \(output)/truncated.jpg}
                  empty: {op: load, path: \(output)/empty.jpg}
                  a: {op: grayscale, needs: truncated}
                  b: {op: sepia, needs: empty}
                  c: {op: resize, needs: truncated, max_side: 10, max_pixels: 1000}
                """, output: output)
            #expect(
                report.nodes.map(\.outcome).suffix(3) == [
                    .failed("cannot decode JPEG: Premature end of JPEG file"),
                    .failed("not an image: the data is empty"),
                    .failed("image is 320×213 (68160 pixels), more than max_pixels 1000"),
                ])
        }

        /// A result larger than `max_pixels` is refused before it is allocated: an upscale of
        /// bytes (decoded for the resize) and of a decoded image, and a contact sheet.
        @Test func aResultAboveMaxPixelsIsRefusedBeforeItIsAllocated() async throws {
            let output = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: output) }
            let report = try await run(
                """
                version: 1
                operations:
                  load: {op: load, path: sunset-320.jpg}
                  bytes: {op: resize, needs: load, width: 100000}
                  gray: {op: grayscale, needs: load}
                  decoded: {op: resize, needs: gray, height: 100000, max_pixels: 1000000}
                  sheet: {op: contact-sheet, needs: load, cell_width: 2048, max_pixels: 1000000}
                """, output: output)
            #expect(
                report.nodes.map(\.outcome).suffix(4) == [
                    .failed("the result would be 100000×66563 (6656300000 pixels), more than max_pixels 100000000"),
                    .succeeded,
                    .failed("the result would be 150235×100000 (15023500000 pixels), more than max_pixels 1000000"),
                    .failed("the result would be 2080×1595 (3317600 pixels), more than max_pixels 1000000"),
                ])
        }

        @Test func validateChecksImageParameters() {
            #expect(
                diagnostics(
                    """
                    version: 1
                    operations:
                      load: {op: load, path: a.jpg}
                      a: {op: sepia, needs: load, intensity: 1.5}
                      b: {op: tilt-shift, needs: load, top_focus: 0.7, bottom_focus: 0.3}
                      c: {op: resize, needs: load}
                      d: {op: tilt-shift, needs: load, falloff_curve: cubic}
                      e: {op: save, needs: a, path: x.jpg, quality: 0}
                    """, registry: .imaging) == [
                        "test.yaml:4:42: error: operation 'a': 'intensity' must be a number from 0 to 1, not '1.5'",
                        "test.yaml:5:11: error: operation 'b': 'top_focus' (0.7) must not be greater than "
                            + "'bottom_focus' (0.3)",
                        "test.yaml:6:11: error: operation 'c': resize needs 'width', 'height' or 'max_side'",
                        "test.yaml:7:51: error: operation 'd': 'falloff_curve' must be one of smoothstep, linear, "
                            + "not 'cubic'",
                        "test.yaml:8:49: error: operation 'e': 'quality' must be a whole number from 1 to 100, not '0'",
                    ])
        }

        /// The samples of `range` rows of `image`.
        private func rows(_ range: Range<Int>, of image: Image) -> [UInt8] {
            Array(image.pixels[(range.lowerBound * image.rowStride)..<(range.upperBound * image.rowStride)])
        }
    }
}
