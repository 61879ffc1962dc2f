import Foundation
import Testing

@testable import TaskGraphCore

@Suite struct KeyChangeTests {
    private func components(_ pairs: KeyValuePairs<String, String>) -> KeyComponents {
        var key = KeyComponents()
        for (name, value) in pairs { key.add(name, value) }
        return key
    }

    private let base: KeyValuePairs<String, String> = [
        "operation": "exec", "version": "1", "parameter.command": "[sh, -c, x]", "parameter.quality": "90",
        "environment.LANG": "sha256:1", "input.a": "sha256:2", "file.in.txt": "sha256:3", "program": "/bin/sh sha256:4",
    ]

    private func change(_ name: String, to value: String?) -> KeyChange? {
        let before = components(base)
        var after = KeyComponents()
        for component in before.components where component.name != name || value != nil {
            after.add(component.name, component.name == name ? value! : component.value)
        }
        return KeyChange.between(before, after)
    }

    /// An `exec` whose `inputs:` match 50,000 files, one of them changed, one removed and one
    /// added: each is found (the lookups are indexed, so this takes milliseconds, not minutes).
    @Test func oneChangedFileAmongFiftyThousandIsFound() {
        var before = components(base)
        for index in 0..<50_000 { before.add("file.in/\(index).txt", "sha256:\(index)") }
        var after = before
        after.add("file.in/31234.txt", "sha256:changed")
        #expect(after.components.count == before.components.count, "a second value replaces the first in place")
        #expect(after["file.in/31234.txt"] == "sha256:changed")
        #expect(KeyChange.between(before, after) == KeyChange(reason: .fileChanged, detail: "in/31234.txt"))
        #expect(KeyChange.changedNames(before, after) == ["file.in/31234.txt"])
        var removedAndAdded = KeyComponents()
        for component in before.components where component.name != "file.in/7.txt" {
            removedAndAdded.add(component.name, component.value)
        }
        removedAndAdded.add("file.in/new.txt", "sha256:new")
        #expect(KeyChange.changedNames(before, removedAndAdded) == ["file.in/new.txt", "file.in/7.txt"])
    }

    @Test func componentsDecodedFromJSONKeepTheirIndex() throws {
        var many = components(base)
        for index in 0..<100 { many.add("file.\(index)", "sha256:\(index)") }
        let decoded = try JSONDecoder().decode(KeyComponents.self, from: try JSONEncoder().encode(many))
        #expect(decoded == many && decoded.key == many.key)
        #expect(decoded["file.99"] == "sha256:99" && decoded["file.100"] == nil)
    }

    @Test func equalComponentsAreNoChange() {
        #expect(KeyChange.between(components(base), components(base)) == nil)
    }

    @Test func eachComponentNamesItsReason() {
        #expect(change("version", to: "2") == KeyChange(reason: .versionChanged, detail: "1 -> 2"))
        #expect(change("parameter.command", to: "[sh, -c, y]") == KeyChange(reason: .commandChanged, detail: ""))
        #expect(
            change("parameter.quality", to: "80") == KeyChange(reason: .parameterChanged, detail: "quality 90 -> 80"))
        #expect(
            change("parameter.quality", to: nil)
                == KeyChange(reason: .parameterChanged, detail: "quality 90 -> (unset)"))
        #expect(change("program", to: "/bin/sh sha256:5") == KeyChange(reason: .programChanged, detail: "/bin/sh"))
        #expect(change("environment.LANG", to: "sha256:6") == KeyChange(reason: .environmentChanged, detail: "LANG"))
        #expect(change("file.in.txt", to: "sha256:7") == KeyChange(reason: .fileChanged, detail: "in.txt"))
        #expect(change("input.a", to: "sha256:8") == KeyChange(reason: .inputChanged, detail: "a"))
        #expect(change("operation", to: "load") == KeyChange(reason: .new, detail: ""))
    }

    @Test func theUsersOwnChangesComeBeforeTheirConsequences() {
        var after = components(base)
        after.add("input.a", "sha256:9")
        after.add("parameter.quality", "70")
        #expect(KeyChange.between(components(base), after)?.reason == .parameterChanged)
    }
}
