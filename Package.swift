// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "taskgraph",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "TaskGraph", targets: ["TaskGraph"]),
        .executable(name: "taskgraph", targets: ["taskgraph"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
    ],
    targets: [
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]
        ),
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .target(name: "CCurlShim", dependencies: ["CCurl"]),
        .target(name: "CEngineShims"),
        .target(
            name: "TaskGraph",
            dependencies: [
                "CYAML",
                "CCurlShim",
                "CEngineShims",
                "CImageShims",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .systemLibrary(name: "CJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg62-turbo-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .target(name: "CImageShims", dependencies: ["CJPEG", "CPNG"]),
        .executableTarget(
            name: "taskgraph",
            dependencies: [
                "TaskGraph",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "engine-bench",
            dependencies: ["TaskGraph"],
            path: "bench/Sources/EngineBenchmark"
        ),
        .executableTarget(
            name: "crypto-bench",
            dependencies: ["TaskGraph"],
            path: "bench/Sources/CryptoBenchmark"
        ),
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(
            name: "TaskGraphTests",
            dependencies: ["TaskGraph", "TestSupport"],
            exclude: ["Crypto/Fixtures", "Networking/Fixtures"],
            resources: [.copy("Imaging/Fixtures")]
        ),
        .testTarget(
            name: "TaskGraphCLITests",
            dependencies: ["TaskGraph", "TestSupport"],
            resources: [.copy("Fixtures")]
        ),
    ]
)
