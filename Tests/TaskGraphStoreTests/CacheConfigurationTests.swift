import Foundation
import Testing

@testable import TaskGraphStore

/// Sizes as people write them, and the user's configuration file.
@Suite struct CacheConfigurationTests {
    @Test(arguments: [
        ("5GiB", Int64(5) << 30), ("500MB", 500_000_000), ("1G", 1 << 30), ("1.5 GiB", 3 << 29), ("2kb", 2000),
        ("2K", 2048), ("1048576", 1_048_576), ("0", 0), ("3tb", 3_000_000_000_000), ("10 B", 10),
    ])
    func sizes(text: String, bytes: Int64) throws {
        #expect(try ByteSize.parse(text) == bytes)
    }

    @Test(arguments: ["", "GiB", "5 XB", "-1G", "1e3", "five", "1.2.3M", "99999999999T"])
    func notSizes(text: String) {
        #expect(throws: StoreError.invalidSize(text)) { try ByteSize.parse(text) }
        #expect(StoreError.invalidSize(text).description == "'\(text)' is not a size such as 5GiB, 500MB or 1G")
    }

    @Test func theFileIsFoundWhereXDGSays() {
        #expect(
            CacheConfiguration.file(environment: ["XDG_CONFIG_HOME": "/x", "HOME": "/h"]) == "/x/taskgraph/config.yaml")
        #expect(
            CacheConfiguration.file(environment: ["XDG_CONFIG_HOME": "x", "HOME": "/h"])
                == "/h/.config/taskgraph/config.yaml")
        #expect(CacheConfiguration.file(environment: [:]) == nil)
    }

    @Test func readsTheMaximumSizeAndIgnoresCommentsAndOtherKeys() throws {
        let text = """
            # taskgraph settings
            theme: dark
            cache_max_size: "20GiB"   # plenty

            """
        #expect(try CacheConfiguration.parse(text, file: "/c.yaml") == CacheConfiguration(maxSize: 20 << 30))
        #expect(try CacheConfiguration.parse("", file: "/c.yaml").maxSize == 5 << 30)
    }

    @Test func namesTheLineOfAWrongSize() {
        let error = #expect(throws: StoreError.self) {
            try CacheConfiguration.parse("\ncache_max_size: lots\n", file: "/home/u/.config/taskgraph/config.yaml")
        }
        #expect(
            error?.description
                == "/home/u/.config/taskgraph/config.yaml:2: cache_max_size: 'lots' is not a size such as 5GiB, "
                + "500MB or 1G"
        )
    }

    @Test func namesALineThatIsNoSetting() {
        let error = #expect(throws: StoreError.self) {
            try CacheConfiguration.parse("cache_max_size 5G\n", file: "/c.yaml")
        }
        #expect(error?.description == "/c.yaml:1: expected 'key: value', found 'cache_max_size 5G'")
    }

    @Test func loadsTheUsersFileOrTheDefaults() throws {
        let home = try emptyDirectory("home")
        #expect(try CacheConfiguration.load(environment: ["HOME": home]) == CacheConfiguration())
        try FileManager.default.createDirectory(atPath: home + "/.config/taskgraph", withIntermediateDirectories: true)
        try writeFile("cache_max_size: 1M\n", to: home + "/.config/taskgraph/config.yaml")
        #expect(try CacheConfiguration.load(environment: ["HOME": home]).maxSize == 1 << 20)
    }
}
