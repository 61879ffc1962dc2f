import Foundation
import OperationTestSupport
import TaskGraphCore
import Testing

@testable import TaskGraphImaging

/// Every imaging operation's action is cacheable, each type with its own version (resize 2 since
/// it shrinks JPEGs on decode, the others 1), adds nothing to its key and is recomputable: an
/// image's pixels come only from its input and parameters.
struct ImagingCachingTests {
    @Test func everyImagingActionIsCacheableAtItsVersion() async throws {
        let required: [String: [String: ParameterValue]] = [
            "resize": ["max_side": .integer(100)], "crop": ["width": .integer(10), "height": .integer(10)],
        ]
        let types = ImagingOperations.types
        #expect(types.map(\.name) == ["sepia", "grayscale", "blur", "tilt-shift", "resize", "crop", "contact-sheet"])
        for type in types {
            let action = try #require(
                try makeOperationAction(type, required[type.name] ?? [:]) as? any CacheableAction, "\(type.name)")
            #expect(action.cacheVersion == (type.name == "resize" ? 2 : 1), "\(type.name)")
            #expect(action.unkeyedParameters == [], "\(type.name)")
            #expect(action.outputFiles == [], "\(type.name)")
            #expect(action.isRecomputable, "\(type.name)")
            #expect(try await addedKeyComponents(of: action).lines == [], "\(type.name)")
        }
    }

    @Test func saveWithTheImageEncoderDeclaresItsFile() throws {
        let action = try #require(
            try makeOperationAction(
                SaveOperation.type(encoder: ImagingOperations.saveEncoder), ["path": .string("photos/lake.jpg")],
                directory: "/tmp/run") as? any CacheableAction)
        #expect(action.outputFiles == ["/tmp/run/photos/lake.jpg"])
    }
}
