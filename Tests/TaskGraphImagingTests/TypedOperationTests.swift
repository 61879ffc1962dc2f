import Foundation
import OperationTestSupport
import TaskGraphCore
import TaskGraphImaging
import Testing

/// The imaging operations' Swift types: checked as `validate` checks a pipeline, keyed as the
/// same operations written in a pipeline file, and runnable like any action.
struct TypedOperationTests {
    private let directory: URL

    init() throws {
        directory = try makeScratchDirectory()
        try fixture("gradient-baseline.jpg").write(to: directory.appendingPathComponent("photo.jpg"))
    }

    private var outputDirectory: String { directory.appendingPathComponent("out").path }

    /// The photo chain built in Swift.
    private func typedChain() throws -> ExecutionGraph {
        var graph = ExecutionGraph()
        let load = try graph.add("load", action: Load(path: "photo.jpg", directory: directory.path))
        let tilt = try graph.add(
            "tilt", action: TiltShift(blurRadius: 6, topFocus: 0.4, falloffCurve: .linear), needs: [load])
        let tone = try graph.add("tone", action: Sepia(intensity: 0.8), needs: [tilt])
        let sheet = try graph.add("sheet", action: ContactSheet(columns: 1, captions: false), needs: [tone])
        try graph.add(
            "save",
            action: Save(
                path: "lake.jpg", quality: 85, outputDirectory: outputDirectory,
                encoder: ImagingOperations.saveEncoder),
            needs: [sheet])
        return graph
    }

    /// The same chain in a pipeline file.
    private func plannedChain() throws -> ExecutionGraph {
        let text = """
            version: 1
            name: chain
            operations:
              load: {op: load, path: photo.jpg}
              tilt: {op: tilt-shift, needs: load, blur_radius: 6, top_focus: 0.4, falloff_curve: linear}
              tone: {op: sepia, needs: tilt, intensity: 0.8}
              sheet: {op: contact-sheet, needs: tone, columns: 1, captions: false}
              save: {op: save, needs: sheet, path: lake.jpg, quality: 85}
            """
        return try plannedGraph(text, in: directory.path, registry: .imaging, outputDirectory: outputDirectory)
    }

    @Test func eachTypedOperationIsKeyedAsTheSameOperationInAPipelineFile() async throws {
        let typed = try await keys(of: typedChain())
        #expect(typed.count == 5)
        #expect(typed == (try await keys(of: plannedChain())))
    }

    @Test func theTypedChainRunsAndSavesItsPhoto() async throws {
        let report = await Engine().run(try typedChain())
        #expect(report.nodes.map(\.outcome.kind) == [.succeeded, .succeeded, .succeeded, .succeeded, .succeeded])
        let saved = try Data(contentsOf: URL(fileURLWithPath: outputDirectory).appendingPathComponent("lake.jpg"))
        #expect(saved.starts(with: [0xFF, 0xD8]))
    }

    @Test func aValueOutOfRangeGetsTheMessageValidateGives() throws {
        #expect(throws: OperationError.self) { try TiltShift(blurRadius: 5000) }
        do {
            _ = try TiltShift(blurRadius: 5000)
        } catch {
            #expect(
                String(describing: error) == "'tilt-shift': 'blur_radius' must be a number from 0.5 to 100, not '5000'")
        }
        let text = "version: 1\nname: p\noperations:\n  tilt: {op: tilt-shift, blur_radius: 5000}\n"
        do {
            _ = try Pipeline.load(text: text, file: "p.yaml", options: PipelineOptions(registry: .imaging))
            Issue.record("validate accepted blur_radius 5000")
        } catch {
            #expect(
                String(describing: error).contains(
                    "operation 'tilt': 'blur_radius' must be a number from 0.5 to 100, not '5000'"))
        }
    }

    @Test func aHandMadeSetupIsCheckedAsAPipelineFileIs() throws {
        func failure(_ parameters: [String: ParameterValue], type: String = "tilt-shift") -> String {
            let setup = OperationSetup(
                type: type, id: type, parameters: Parameters(parameters), pipelineDirectory: "/", outputDirectory: "/")
            do {
                _ = try OperationRegistry.imaging.check(setup)
                return "accepted"
            } catch {
                return error.description
            }
        }
        #expect(
            failure(["blur_radus": .number(50)])
                == "'tilt-shift' has no parameter 'blur_radus'; did you mean 'blur_radius'?")
        #expect(
            failure(["falloff_curve": .string("cubic")])
                == "'tilt-shift': 'falloff_curve' must be one of smoothstep, linear, not 'cubic'")
        #expect(
            failure(["top_focus": .string("high")])
                == "'tilt-shift': 'top_focus' must be a number from 0 to 1, not 'high'")
        #expect(failure(["width": .integer(10)], type: "crop") == "'crop': missing required parameter 'height'")
        #expect(failure(["width": .integer(10)], type: "wobble") == "no operation type 'wobble' is registered")
        #expect(failure(["blur_radius": .integer(6)]) == "accepted")
    }
}
