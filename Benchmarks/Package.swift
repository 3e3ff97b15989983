// swift-tools-version:6.1
// Stage benchmarks for Penumbra (package-benchmark). A package of its own so that the
// main package's build and `swift test` never pay for the benchmark tooling.
// Run:  cd Benchmarks && swift package --allow-writing-to-package-directory benchmark
import PackageDescription

let package = Package(
    name: "PenumbraBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: "PenumbraPackage"), // a link to the repository root, so the identity does not depend on the clone folder
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.0", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "PenumbraStages",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Penumbra", package: "PenumbraPackage"),
            ],
            path: "Benchmarks/PenumbraStages",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
    ]
)
