// swift-tools-version:6.0
// Fuzz targets, kept out of the main package so its normal build is untouched.
// Build and run with fuzz/run (it passes -sanitize=fuzzer,address).
import PackageDescription

let package = Package(
    name: "taskgraph-fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "taskgraph", path: "..")],
    targets: [
        .target(name: "FuzzDriver"),
        .executableTarget(
            name: "FuzzPipeline",
            dependencies: [
                "FuzzDriver",
                .product(name: "TaskGraphCore", package: "taskgraph"),
                .product(name: "TaskGraphImaging", package: "taskgraph"),
                .product(name: "TaskGraphNetwork", package: "taskgraph"),
                .product(name: "TaskGraphCrypto", package: "taskgraph"),
                .product(name: "TaskGraphReporting", package: "taskgraph"),
            ],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        .executableTarget(
            name: "FuzzDecrypt",
            dependencies: [
                "FuzzDriver",
                .product(name: "TaskGraphCore", package: "taskgraph"),
                .product(name: "TaskGraphCrypto", package: "taskgraph"),
            ],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        .executableTarget(
            name: "FuzzOutputPath",
            dependencies: ["FuzzDriver", .product(name: "TaskGraphCore", package: "taskgraph")],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        .executableTarget(
            name: "FuzzImage",
            dependencies: ["FuzzDriver", .product(name: "TaskGraphImaging", package: "taskgraph")],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
    ]
)
