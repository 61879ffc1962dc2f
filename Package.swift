// swift-tools-version:6.0
import PackageDescription

// The module graph is drawn in README.md (Layout). TaskGraphBasics links nothing of ours but C
// shims; TaskGraphCore links no image, network or crypto library; each operation family is a
// module on top of it; the CLI assembles them.
let package = Package(
    name: "taskgraph",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "TaskGraphBasics", targets: ["TaskGraphBasics"]),
        .library(name: "TaskGraphPipeline", targets: ["TaskGraphPipeline"]),
        .library(name: "TaskGraphCore", targets: ["TaskGraphCore"]),
        .library(name: "TaskGraphImaging", targets: ["TaskGraphImaging"]),
        .library(name: "TaskGraphNetwork", targets: ["TaskGraphNetwork"]),
        .library(name: "TaskGraphCrypto", targets: ["TaskGraphCrypto"]),
        .library(name: "TaskGraphReporting", targets: ["TaskGraphReporting"]),
        .library(name: "TaskGraphStore", targets: ["TaskGraphStore"]),
        .library(name: "TaskGraphSlurm", targets: ["TaskGraphSlurm"]),
        .executable(name: "taskgraph", targets: ["taskgraph"]),
        // The file-access tracer `run --lint` loads into `exec` programs (LD_PRELOAD); found
        // beside the taskgraph executable, never linked into it.
        .library(name: "TaskGraphFileTrace", type: .dynamic, targets: ["CFileAccessTrace"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
    ],
    targets: [
        // C libraries and shims, each in its own target.
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
        // libcurl's headers only (libcurl4-openssl-dev): CCurlShim opens the library on first use.
        .systemLibrary(name: "CCurl"),
        .systemLibrary(name: "CJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg62-turbo-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .target(name: "CSystemShims"),
        .target(name: "CCurlShim", dependencies: ["CCurl"]),
        .target(name: "CImageShims", dependencies: ["CJPEG", "CPNG"]),
        .target(
            name: "CFileAccessTrace",
            // Never instrumented (--sanitize): it runs inside programs without a sanitizer's runtime.
            cSettings: [.unsafeFlags(["-fno-sanitize=all"])],
            // Nothing but libc in every traced program: without Swift's startup object nothing
            // needs the Swift runtime, and TraceRecords.c has the link drop what is not needed
            // (a link that loaded libswiftCore took 5 ms more per program started).
            linkerSettings: [.linkedLibrary("dl"), .unsafeFlags(["-nostartfiles"])]),

        // Threads, child processes, files, locks and usage metering, with their own errors: the
        // plumbing every other module uses, depending on nothing of the product.
        .target(name: "TaskGraphBasics", dependencies: ["CSystemShims"]),
        // The pipeline format: YAML reading, source locations and diagnostics, variables and
        // foreach items, parameter types, values and their checks, reading a file into a spec
        // checked against operation declarations, node settings, instance expansion. Names
        // nothing of the graph, the actions or the engine.
        .target(name: "TaskGraphPipeline", dependencies: ["TaskGraphBasics", "CYAML"]),
        // The graph model, the operation types and their actions, planning the actions, the
        // engine, cache decisions and the remote seam: no image, network or cipher library
        // (swift-crypto only for the SHA-256 of content digests). Re-exports TaskGraphBasics and
        // TaskGraphPipeline.
        .target(
            name: "TaskGraphCore",
            dependencies: [
                "TaskGraphBasics", "TaskGraphPipeline", "CSystemShims",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // Operation families.
        .target(name: "TaskGraphImaging", dependencies: ["TaskGraphCore", "CImageShims"]),
        .target(
            name: "TaskGraphNetwork",
            dependencies: ["TaskGraphCore", "CCurlShim", .product(name: "Crypto", package: "swift-crypto")]
        ),
        .target(
            name: "TaskGraphCrypto",
            dependencies: ["TaskGraphCore", .product(name: "Crypto", package: "swift-crypto")]
        ),
        // Results of earlier runs on disk: the content-addressed store (docs/cache.md).
        .target(name: "TaskGraphStore", dependencies: ["TaskGraphCore", "CSystemShims"]),
        // Running operations as jobs of a Slurm cluster, through a shared store (docs/cluster.md).
        .target(name: "TaskGraphSlurm", dependencies: ["TaskGraphCore"]),
        // What people and other tools read of a run.
        .target(name: "TaskGraphReporting", dependencies: ["TaskGraphCore"]),
        // The command-line tool.
        .executableTarget(
            name: "taskgraph",
            dependencies: [
                "TaskGraphCore", "TaskGraphImaging", "TaskGraphNetwork", "TaskGraphCrypto", "TaskGraphReporting",
                "TaskGraphStore", "TaskGraphSlurm", "CSystemShims",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            // The Swift runtime and Foundation linked in, not loaded from two dozen shared
            // libraries at every start (bench/run-startup.sh). Compiled with it too, so that the
            // objects name the static libraries Foundation needs. Release builds only: debug
            // builds and tests link faster without. Foundation's mktemp calls go to
            // CSystemShims/MktempWrap.c, so the link prints no glibc warning about them.
            swiftSettings: [.unsafeFlags(["-static-stdlib"], .when(configuration: .release))],
            linkerSettings: [
                .unsafeFlags(
                    ["-static-stdlib", "-Xlinker", "-no-pie", "-Xlinker", "--wrap=mktemp"],
                    .when(configuration: .release))
            ]
        ),

        .executableTarget(name: "engine-bench", dependencies: ["TaskGraphCore"], path: "bench/Sources/EngineBenchmark"),
        .executableTarget(
            name: "crypto-bench", dependencies: ["TaskGraphCrypto"], path: "bench/Sources/CryptoBenchmark"),
        .executableTarget(name: "store-bench", dependencies: ["TaskGraphStore"], path: "bench/Sources/StoreBenchmark"),

        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .target(
            name: "OperationTestSupport", dependencies: ["TaskGraphCore", "TestSupport"], path: "Tests/OperationTestSupport"),
        .testTarget(
            name: "TaskGraphBasicsTests", dependencies: ["TaskGraphBasics", "TaskGraphCore", "OperationTestSupport"]),
        // The format's tests load pipelines through the core's `Pipeline.load` with its
        // operations, as a library user does.
        .testTarget(
            name: "TaskGraphPipelineTests", dependencies: ["TaskGraphPipeline", "TaskGraphCore", "OperationTestSupport"]),
        .testTarget(
            name: "TaskGraphCoreTests", dependencies: ["TaskGraphCore", "OperationTestSupport", "TestSupport"]),
        .testTarget(
            name: "TaskGraphImagingTests",
            dependencies: ["TaskGraphImaging", "OperationTestSupport", "TestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "TaskGraphNetworkTests",
            dependencies: ["TaskGraphNetwork", "TaskGraphReporting", "OperationTestSupport", "TestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "TaskGraphCryptoTests",
            dependencies: ["TaskGraphCrypto", "OperationTestSupport", "TestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "TaskGraphStoreTests", dependencies: ["TaskGraphStore", "OperationTestSupport", "TestSupport"]),
        .testTarget(name: "TaskGraphReportingTests", dependencies: ["TaskGraphReporting", "OperationTestSupport"]),
        .testTarget(name: "TaskGraphSlurmTests", dependencies: ["TaskGraphSlurm"]),
        .testTarget(
            name: "TaskGraphCLITests",
            dependencies: ["TaskGraphImaging", "TestSupport"],
            resources: [.copy("Fixtures")]
        ),
    ]
)
