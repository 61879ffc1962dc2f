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

    @Test func equalComponentsAreNoChange() {
        #expect(KeyChange.between(components(base), components(base)) == nil)
    }

    @Test func eachComponentNamesItsReason() {
        #expect(change("version", to: "2") == KeyChange(reason: .versionChanged, detail: "1 -> 2"))
        #expect(change("parameter.command", to: "[sh, -c, y]") == KeyChange(reason: .commandChanged, detail: ""))
        #expect(change("parameter.quality", to: "80") == KeyChange(reason: .parameterChanged, detail: "quality 90 -> 80"))
        #expect(change("parameter.quality", to: nil) == KeyChange(reason: .parameterChanged, detail: "quality 90 -> (unset)"))
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
