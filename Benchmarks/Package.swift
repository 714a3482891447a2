// swift-tools-version:6.0
//
// Sigil's benchmarks: a package of their own so the root package gains no dependency.
// Each figure is measured side by side with the reference implementation in the same run.
// Build and run in release: swift run -c release sigil-bench
import PackageDescription

let package = Package(
    name: "SigilBenchmarks",
    dependencies: [
        .package(name: "Sigil", path: "../"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
    ],
    targets: [
        .executableTarget(
            name: "sigil-bench",
            dependencies: [
                .product(name: "SigilCore", package: "Sigil"),
                .product(name: "SigilASN1", package: "Sigil"),
                .product(name: "SigilKeys", package: "Sigil"),
                .product(name: "SigilX509", package: "Sigil"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            path: "Sources/SigilBench"
        ),
    ]
)
