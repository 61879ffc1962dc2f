import Foundation
import Testing

@testable import TaskGraphCore

@Suite struct KeyComponentsTests {
    private func sepia(intensity: String) -> KeyComponents {
        var key = KeyComponents()
        key.add("operation", "sepia")
        key.add("version", "1")
        key.add("parameter.intensity", intensity)
        key.add("input.tilt[lake]", "sha256:" + String(repeating: "ab", count: 32))
        return key
    }

    @Test func encodingIsLengthPrefixedNamesAndValuesAfterTheMagic() {
        var key = KeyComponents()
        key.add("a", "xy")
        #expect(
            key.encoded == Data("taskgraph-key-4\n".utf8) + Data([0, 0, 0, 1]) + Data("a".utf8) + Data([0, 0, 0, 2])
                + Data("xy".utf8))
    }

    /// Keys written here must never change: a store written by an earlier version relies on them.
    @Test func keysAreStable() {
        #expect(
            sepia(intensity: "0.8").key.description
                == "sha256:ec6f1be3e0759619625977ab43dfdaa7590edf1442e484ac4d7e18ff1abc12e1")
        #expect(KeyComponents().key.description == ContentDigest.sha256(of: Data("taskgraph-key-4\n".utf8)).description)
    }

    @Test func anyChangedValueChangesTheKey() {
        #expect(sepia(intensity: "0.8").key != sepia(intensity: "0.7").key)
    }

    @Test func nameAndValueBoundariesCannotBeConfused() {
        var first = KeyComponents()
        first.add("ab", "c")
        var second = KeyComponents()
        second.add("a", "bc")
        #expect(first.key != second.key)
    }

    @Test func addingANameAgainReplacesItsValueInPlace() {
        var key = KeyComponents()
        key.add("a", "1")
        key.add("b", "2")
        key.add("a", "3")
        #expect(key.components.map(\.name) == ["a", "b"])
        #expect(key["a"] == "3")
    }

    @Test func roomReservedChangesNothingButSpeed() {
        var reserved = KeyComponents()
        var plain = KeyComponents()
        reserved.add("operation", "exec")
        reserved.reserveCapacity(100)
        plain.add("operation", "exec")
        for index in 0..<60 {
            reserved.add("file.\(index)", "\(index)")
            plain.add("file.\(index)", "\(index)")
        }
        reserved.add("file.7", "changed")
        plain.add("file.7", "changed")
        #expect(reserved == plain)
        #expect(reserved.components.count == 61)
        #expect(reserved["file.7"] == "changed")
        #expect(reserved["operation"] == "exec")
        #expect(reserved.key == plain.key)
    }

    @Test func secretsEnterOnlyAsDigests() {
        var key = KeyComponents()
        key.addSecret("environment.TOKEN", "hunter2")
        #expect(key["environment.TOKEN"] == ContentDigest.sha256(of: Data("hunter2".utf8)).description)
        #expect(!String(decoding: key.encoded, as: UTF8.self).contains("hunter2"))
    }

    @Test func parameterTextRedactsCredentialsAndSecretEntries() {
        let url = ParameterValue.string("https://ann:pw@example.com/a.jpg")
        #expect(
            url.keyText == "https://example.com/a.jpg "
                + ContentDigest.sha256(of: Data("https://ann:pw@example.com/a.jpg".utf8)).description)
        let headers = ParameterValue.map(["Authorization": "Bearer x", "Accept": "image/jpeg"])
        #expect(headers.keyText.hasPrefix("{Accept: image/jpeg, Authorization: ***} sha256:"))
        #expect(ParameterValue.number(0.8).keyText == "0.8")
        #expect(ParameterValue.number(6).keyText == "6")
        #expect(ParameterValue.list(["a", "b"]).keyText == "[a, b]")
    }
}
