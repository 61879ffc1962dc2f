// swift-tools-version:6.0
import PackageDescription

// Programs written against the taskgraph libraries as a user would, depending on the project by
// path. scripts/test.sh builds and runs each one.
let package = Package(
    name: "TaskGraphExamples",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "taskgraph", path: "..")],
    targets: [
        .executableTarget(
            name: "PhotoFlow",
            dependencies: [
                .product(name: "TaskGraphCore", package: "taskgraph"),
                .product(name: "TaskGraphImaging", package: "taskgraph"),
                .product(name: "TaskGraphNetwork", package: "taskgraph"),
                .product(name: "TaskGraphCrypto", package: "taskgraph"),
                .product(name: "TaskGraphStore", package: "taskgraph"),
            ]
        )
    ]
)
