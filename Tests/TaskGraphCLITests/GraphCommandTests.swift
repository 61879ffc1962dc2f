import Foundation
import Testing

/// `taskgraph graph` of a pipeline with a fan-out from a result: the operations taking items from
/// `index` are drawn as templates (`get[*]`), before a run and after one.
@Suite struct GraphCommandTests {
    private let pipeline = """
        version: 1
        operations:
          key: {op: exec, command: [echo, k]}
          index: {op: exec, command: [printf, 'a\\nb\\n']}
          get: {foreach: {from: index}, op: exec, needs: key, command: [echo, "${item}"]}
          copy: {foreach: {from: index}, op: group, needs: get}
          all: {op: group, needs: copy}
        """

    @Test func aFanOutIsDrawnAsItsTemplatesWithTheirInstancesDecidedWhenTheSourceRuns() async throws {
        let directory = try fixtureDirectory()
        try write(pipeline, to: "fan.yaml", in: directory)
        let dot = try await TaskGraphProcess.run(["graph", "fan.yaml"], in: directory)
        #expect(dot.status == 0, "\(dot.stderr)")
        #expect(
            dot.stdout == """
                digraph taskgraph {
                  rankdir=LR;
                  node [shape=box, style=rounded];
                  n0 [label="key\\nexec"];
                  n1 [label="index\\nexec"];
                  n2 [label="all\\ngroup"];
                  n3t0 [label="get[*]\\nexec\\ninstances: decided when index runs"];
                  n3t1 [label="copy[*]\\ngroup\\ninstances: decided when index runs"];
                  n2 -> n3t1;
                  n3t0 -> n1 [style=dashed, label="items"];
                  n3t0 -> n0;
                  n3t1 -> n3t0;
                }

                """)
    }

    @Test func afterARunTheTemplatesCountTheirInstances() async throws {
        let directory = try fixtureDirectory()
        try write(pipeline, to: "fan.yaml", in: directory)
        let run = try await TaskGraphProcess.run(
            ["run", "fan.yaml", "--events", "events.jsonl", "--no-cache"], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        let mermaid = try await TaskGraphProcess.run(
            ["graph", "fan.yaml", "--format", "mermaid", "--events", "events.jsonl"], in: directory)
        #expect(mermaid.status == 0, "\(mermaid.stderr)")
        #expect(
            mermaid.stdout == """
                flowchart LR
                  n0["key<br/><small>exec</small>"]
                  n1["index<br/><small>exec</small>"]
                  n2["all<br/><small>group</small>"]
                  n3t0["get[*]<br/><small>exec</small><br/><small>instances: 2</small>"]
                  n3t1["copy[*]<br/><small>group</small><br/><small>instances: 2</small>"]
                  n2 --> n3t1
                  n3t0 -. "items" .-> n1
                  n3t0 --> n0
                  n3t1 --> n3t0
                  style n0 fill:#b7e4c7
                  style n1 fill:#b7e4c7
                  style n2 fill:#b7e4c7

                """)
    }
}
