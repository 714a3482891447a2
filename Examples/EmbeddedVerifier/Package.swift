// swift-tools-version:6.0
//
// What a user embedding Sigil writes: a path dependency on the repository and one program that
// verifies an App Store signed transaction (or renewal info, or notification) against a pinned
// root. It imports SigilAppStore and SigilX509, and reads its two files with the C library;
// `check.sh` beside this file builds it, verifies real Apple data with it and checks what it links.
import PackageDescription

let package = Package(
    name: "EmbeddedVerifier",
    dependencies: [
        .package(name: "Sigil", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "embedded-verifier",
            dependencies: [
                .product(name: "SigilAppStore", package: "Sigil"),
                .product(name: "SigilX509", package: "Sigil"),
            ]
        )
    ]
)
