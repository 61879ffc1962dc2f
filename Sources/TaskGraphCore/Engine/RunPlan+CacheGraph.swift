extension RunPlan {
    /// The plan's graph as the run's cache reads it (its arrays shared, not copied).
    var cacheGraph: CacheGraph {
        CacheGraph(nodes: nodes, dependencies: dependencies, dependents: dependents)
    }
}
