import TaskGraphCore
import Testing

/// Which nodes share a job under fusion: docs/cluster.md, "Fusion".
@Suite struct FusedChainsTests {
    /// Chains of the graph given as each node's needs, every node fusible unless listed.
    private static func chains(_ needs: [[Int]], notFusible: Set<Int> = []) -> FusedChains {
        var dependents = [[Int]](repeating: [], count: needs.count)
        for (node, list) in needs.enumerated() { for need in list { dependents[need].append(node) } }
        return FusedChains(
            count: needs.count, needs: { needs[$0] }, dependents: { dependents[$0] },
            fusible: { !notFusible.contains($0) })
    }

    @Test func aLinearPipelineIsOneChain() {
        let found = Self.chains([[], [0], [1], [2], [3]])
        #expect(found.chains == [[0, 1, 2, 3, 4]])
        #expect(found.chain(of: 3)?.position == 3)
        #expect(found.chain(of: 0)?.chain == [0, 1, 2, 3, 4])
    }

    /// photos.yaml for one photo: download 0, decrypt 1, tilt 2, tone 3, save 4, thumbnail 5,
    /// save-thumbnail 6, sheet-cell 7; contact-sheet 8 also needs another photo's cell 9.
    @Test func aFanOutOrFanInEndsAChain() {
        let found = Self.chains([[], [0], [1], [2], [3], [1], [5], [3], [7, 9], []])
        #expect(found.chains == [[0, 1], [2, 3], [5, 6]])
        #expect(found.chain(of: 4) == nil)
        #expect(found.chain(of: 7) == nil)
        #expect(found.chain(of: 8) == nil)
    }

    @Test func aNodeThatIsNotFusibleSplitsTheChain() {
        let found = Self.chains([[], [0], [1], [2], [3]], notFusible: [2])
        #expect(found.chains == [[0, 1], [3, 4]])
        #expect(found.chain(of: 2) == nil)
        #expect(found.chain(of: 4)?.position == 1)
    }

    @Test func aSingleNodeIsNoChain() {
        #expect(Self.chains([[], [0]], notFusible: [1]).chains == [])
        #expect(Self.chains([[]]).chains == [])
    }

    @Test func chainsAreOrderedByTheirHeads() {
        // 3 → 0 and 1 → 2: heads 1 and 3.
        let found = Self.chains([[3], [], [1], []])
        #expect(found.chains == [[1, 2], [3, 0]])
    }
}
