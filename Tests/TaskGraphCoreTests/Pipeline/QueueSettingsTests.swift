import OperationTestSupport
import TaskGraphReporting
import Testing

@testable import TaskGraphCore

/// `priority`, `exclusive` and `when` in pipeline files.
@Suite struct QueueSettingsTests {
    @Test func settingsAndDefaultsReachTheNodes() throws {
        let graph = try plannedGraph(
            """
            version: 1
            defaults:
              priority: low
            operations:
              index:
                op: group
                priority: very-high
                exclusive: true
              vacuum:
                op: group
                needs: index
                priority: -42
                exclusive: run
                when: always
              rest:
                op: group
                needs: index
                when: failure
            """)
        #expect(
            graph.nodes.map(\.settings) == [
                NodeSettings(priority: 8, exclusive: .pool),
                NodeSettings(priority: -42, exclusive: .run, when: .always),
                NodeSettings(priority: -4, when: .failure),
            ])
        #expect(
            PlanPrinter(graph: graph).render() == """
                plan: 3 operations in 2 levels
                level 1:
                  index  (group, priority=very-high, exclusive=true)
                level 2:
                  vacuum  (group, priority=-42, exclusive=run, when=always)
                  rest  (group, priority=low, when=failure)

                """)
    }

    @Test func badValuesAreReportedWhereWritten() {
        #expect(
            diagnostics(
                """
                version: 1
                defaults:
                  priority: urgent
                operations:
                  a:
                    op: group
                    priority: 101
                  b:
                    op: group
                    exclusive: maybe
                  c:
                    op: group
                    needs: a
                    when: allways
                  d:
                    op: group
                    when: failure
                """) == [
                    "test.yaml:3:13: error: 'defaults': 'priority' must be very-low, low, normal, high, very-high or a "
                        + "whole number from -100 to 100, not 'urgent'",
                    "test.yaml:7:15: error: operation 'a': 'priority' must be very-low, low, normal, high, very-high "
                        + "or a whole number from -100 to 100, not '101'",
                    "test.yaml:10:16: error: operation 'b': 'exclusive' must be one of false, true, run, not 'maybe'",
                    "test.yaml:14:11: error: operation 'c': 'when' must be one of success, always, failure, not "
                        + "'allways'; did you mean 'always'?",
                    "test.yaml:17:11: error: operation 'd': 'when: failure' runs only after something it needs failed, "
                        + "but it has no 'needs'",
                ])
    }
}
