// swift-tools-version:6.1
//
// Allocation counts for Sigil's fast paths, with ordo-one/benchmark's malloc counter
// (malloc-interposer). Run: swift package --disable-sandbox benchmark
// A package of its own so neither the root package nor Benchmarks/ depends on the framework.
import PackageDescription

let package = Package(
    name: "SigilAllocations",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Sigil", path: "../../", traits: ["Benchmarks"]),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "SigilAllocations",
            dependencies: [
                .product(name: "SigilCore", package: "Sigil"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/SigilAllocations",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        )
    ]
)
