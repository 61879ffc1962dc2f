// Strongly connected components: an iterative Tarjan search (linear time, explicit stacks, so a
// million-node chain is fine) and the partition it gives, used by `stronglyConnectedComponents`
// and the cycle finder.

/// Strongly connected components of a graph, numbered in ascending order of their smallest node.
struct ComponentPartition {
    /// Start of each component's range in `members`; `componentCount + 1` entries.
    let memberOffsets: [Int32]
    /// Nodes grouped by component, ascending within each component.
    let members: [Int32]

    /// Number of components.
    var componentCount: Int { memberOffsets.count - 1 }

    /// Partitions `graph` into strongly connected components in linear time.
    /// - Parameter graph: The graph to partition; any size, no recursion is used.
    init(_ graph: AdjacencyList) {
        let labelOfNode = tarjanComponentLabels(graph)
        // Number components by first appearance in ascending node order, i.e. by smallest node,
        // while counting their members.
        var componentOfLabel = [Int32](repeating: -1, count: graph.nodeCount)
        var memberOffsets: [Int32] = [0]
        for label in labelOfNode.lazy.map(Int.init) {
            if componentOfLabel[label] < 0 {
                componentOfLabel[label] = Int32(memberOffsets.count - 1)
                memberOffsets.append(0)
            }
            memberOffsets[Int(componentOfLabel[label]) + 1] += 1
        }
        for component in 0..<(memberOffsets.count - 1) {
            memberOffsets[component + 1] += memberOffsets[component]
        }
        // Counting sort of the nodes by component; scanning nodes ascending keeps members sorted.
        var nextSlot = memberOffsets
        var members = [Int32](repeating: 0, count: graph.nodeCount)
        for (node, label) in labelOfNode.enumerated() {
            let component = Int(componentOfLabel[Int(label)])
            members[Int(nextSlot[component])] = Int32(node)
            nextSlot[component] += 1
        }
        self.memberOffsets = memberOffsets
        self.members = members
    }

    /// The nodes of one component, ascending.
    /// - Parameter component: A component number in `0..<componentCount`.
    /// - Returns: A slice of `members`.
    func members(of component: Int) -> ArraySlice<Int32> {
        members[Int(memberOffsets[component])..<Int(memberOffsets[component + 1])]
    }
}

/// Iterative Tarjan search labelling every node with its strongly connected component.
///
/// Labels are numbered in completion order (reverse topological order of the condensation), not
/// by smallest node. Runs in linear time with explicit stacks instead of recursion.
/// - Parameter graph: The graph to search.
/// - Returns: The component label of every node.
func tarjanComponentLabels(_ graph: AdjacencyList) -> [Int32] {
    let nodeCount = graph.nodeCount
    let offsets = graph.offsets
    let targets = graph.targets
    var discoveryIndex = [Int32](repeating: -1, count: nodeCount)
    var lowLink = [Int32](repeating: 0, count: nodeCount)
    var isOnStack = [Bool](repeating: false, count: nodeCount)
    var labelOfNode = [Int32](repeating: -1, count: nodeCount)
    var componentStack: [Int32] = []
    // Explicit call stack: a node and the position of the next outgoing edge to examine.
    var callStack: [(node: Int32, nextEdge: Int32)] = []
    var nextDiscoveryIndex: Int32 = 0
    var labelCount: Int32 = 0

    /// Discovers `node` and pushes it on both stacks.
    func discover(_ node: Int32) {
        discoveryIndex[Int(node)] = nextDiscoveryIndex
        lowLink[Int(node)] = nextDiscoveryIndex
        nextDiscoveryIndex += 1
        componentStack.append(node)
        isOnStack[Int(node)] = true
        callStack.append((node, offsets[Int(node)]))
    }

    for root in 0..<nodeCount where discoveryIndex[root] < 0 {
        discover(Int32(root))
        while let (node, firstUnexaminedEdge) = callStack.last {
            let nodeIndex = Int(node)
            var edge = firstUnexaminedEdge
            let edgeEnd = offsets[nodeIndex + 1]
            var descended = false
            while edge < edgeEnd {
                let successor = targets[Int(edge)]
                edge += 1
                if discoveryIndex[Int(successor)] < 0 {
                    callStack[callStack.count - 1].nextEdge = edge
                    discover(successor)
                    descended = true
                    break
                }
                if isOnStack[Int(successor)] {
                    lowLink[nodeIndex] = min(lowLink[nodeIndex], discoveryIndex[Int(successor)])
                }
            }
            if descended {
                continue
            }
            callStack.removeLast()
            if let parent = callStack.last {
                let parentIndex = Int(parent.node)
                lowLink[parentIndex] = min(lowLink[parentIndex], lowLink[nodeIndex])
            }
            if lowLink[nodeIndex] == discoveryIndex[nodeIndex] {
                while let member = componentStack.popLast() {
                    isOnStack[Int(member)] = false
                    labelOfNode[Int(member)] = labelCount
                    if member == node {
                        break
                    }
                }
                labelCount += 1
            }
        }
    }
    return labelOfNode
}
