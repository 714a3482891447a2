// swift-tools-version:6.1
//
// Sigil's benchmarks: a package of their own so the root package gains no dependency.
// Each figure is measured side by side with the reference implementation in the same run.
// Build and run in release: swift run -c release sigil-bench
import PackageDescription

let package = Package(
    name: "SigilBenchmarks",
    dependencies: [
        .package(name: "Sigil", path: "../", traits: ["Benchmarks"]),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.7.1"),
    ],
    targets: [
        .executableTarget(
            name: "sigil-bench",
            dependencies: [
                .product(name: "SigilBase", package: "Sigil"),
                .product(name: "SigilCore", package: "Sigil"),
                .product(name: "SigilASN1", package: "Sigil"),
                .product(name: "SigilKeys", package: "Sigil"),
                .product(name: "SigilX509", package: "Sigil"),
                .product(name: "SigilJOSE", package: "Sigil"),
                .product(name: "SigilAppStore", package: "Sigil"),
                .product(name: "SigilApplePKI", package: "Sigil"),
                .product(name: "SigilCBOR", package: "Sigil"),
                .product(name: "SigilAppAttest", package: "Sigil"),
                .product(name: "SigilApplePay", package: "Sigil"),
                .product(name: "SigilMdoc", package: "Sigil"),
                .product(name: "SigilTestPKI", package: "Sigil"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                "CFieldCeilingBaseline",
                "CFieldCeilingBMI2ADX",
            ],
            path: "Sources/SigilBench"
        ),
        // The P-256/P-384 field ceiling (README.md): the generated Montgomery multiplication and
        // squaring, written in C by Sources/SigilCore/Field/generate_fields.py, compiled twice —
        // for baseline x86-64, and with BMI2 (MULX) and ADX (ADCX/ADOX) allowed.
        .target(name: "CFieldCeilingBaseline", path: "Sources/CFieldCeilingBaseline"),
        .target(
            name: "CFieldCeilingBMI2ADX",
            path: "Sources/CFieldCeilingBMI2ADX",
            cSettings: [.unsafeFlags(["-mbmi2", "-madx"])]
        ),
    ]
)
