import Testing
import TaskGraphStore

@Suite struct ContentStoreTests {
    @Test func keepsItsRoot() {
        #expect(ContentStore(root: "/tmp/x").root == "/tmp/x")
    }
}
