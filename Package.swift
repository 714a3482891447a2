// swift-tools-version:6.1
//
// Sigil: a pure-Swift cryptography and ASN.1 engine whose only C dependency is GNU MP.
// Library targets depend on no Swift package; only the `sigil` CLI uses swift-argument-parser.
// The one sanctioned exception is opt-in: the `AsyncHTTPClient` trait (off by default) adds an
// HTTP and OCSP transport over swift-server/async-http-client to SigilHTTP. With the trait off,
// nothing of SwiftNIO or AsyncHTTPClient is compiled or linked.
// The module graph is one-way; see ARCHITECTURE.md ("Module graph").
import Foundation
import PackageDescription

let package = Package(
    name: "Sigil",
    products: [
        .library(name: "SigilBase", targets: ["SigilBase"]),
        .library(name: "SigilCore", targets: ["SigilCore"]),
        .library(name: "SigilASN1", targets: ["SigilASN1"]),
        .library(name: "SigilKeys", targets: ["SigilKeys"]),
        .library(name: "SigilX509", targets: ["SigilX509"]),
        .library(name: "SigilOCSP", targets: ["SigilOCSP"]),
        .library(name: "SigilCRL", targets: ["SigilCRL"]),
        .library(name: "SigilHTTP", targets: ["SigilHTTP"]),
        .library(name: "SigilPKCS7", targets: ["SigilPKCS7"]),
        .library(name: "SigilReceipts", targets: ["SigilReceipts"]),
        .library(name: "SigilJOSE", targets: ["SigilJOSE"]),
        .library(name: "SigilAppStore", targets: ["SigilAppStore"]),
        .library(name: "SigilTokens", targets: ["SigilTokens"]),
        .library(name: "SigilApplePKI", targets: ["SigilApplePKI"]),
        .library(name: "SigilAppleRoots", targets: ["SigilAppleRoots"]),
        .library(name: "SigilAdvancedCommerce", targets: ["SigilAdvancedCommerce"]),
        .library(name: "SigilCipher", targets: ["SigilCipher"]),
        .library(name: "SigilApplePay", targets: ["SigilApplePay"]),
        .library(name: "SigilCBOR", targets: ["SigilCBOR"]),
        .library(name: "SigilCOSE", targets: ["SigilCOSE"]),
        .library(name: "SigilMdoc", targets: ["SigilMdoc"]),
        .library(name: "SigilAppAttest", targets: ["SigilAppAttest"]),
        // Test fixtures (certificate, Apple-shaped PKI and app receipt builders) for tests, demos
        // and benchmarks; no verifier links it.
        .library(name: "SigilTestPKI", targets: ["SigilTestPKI"]),
        // One request/answer layer for every door (C ABI, Python, HTTP): JSON in, JSON out.
        .library(name: "SigilService", targets: ["SigilService"]),
        // The C ABI (Sources/SigilC/include/sigil.h) over SigilService, as a shared and a static library.
        .library(name: "SigilC", type: .dynamic, targets: ["SigilC"]),
        .library(name: "SigilCStatic", type: .static, targets: ["SigilC"]),
        .executable(name: "sigil", targets: ["sigil"]),
    ],
    traits: [
        .trait(
            name: "AsyncHTTPClient",
            description: "SigilHTTP gains AsyncHTTPClientTransport and AsyncHTTPClientOCSPTransport over AsyncHTTPClient's HTTPClient."
        ),
        .trait(
            name: "Benchmarks",
            description:
                "SigilCore compiles its @_spi(Benchmarks) entry points (field, point and signing-stage microbenchmarks) for Benchmarks/, "
                + "SigilX509 its switch for the CA signature memo."
        ),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // Only with the AsyncHTTPClient trait (see the conditional dependencies below).
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.24.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CGMP",
            pkgConfig: "gmp",
            providers: [.apt(["libgmp-dev"])]
        ),
        // CPU-specific digest kernels (SHA-256 with the x86-64 SHA extensions) and their CPUID
        // probe: static inline functions in one header, selected at run time by SigilCore.
        .target(
            name: "CSigilIntrinsics"
        ),
        // SigilCipher's AES-NI and PCLMULQDQ kernels and their CPUID probe, apart from the digest
        // kernels (which Scripts/check-arm64-kernels compiles for arm64 with no C library headers).
        .target(
            name: "CSigilCipherIntrinsics"
        ),
        // The shared base below SigilCore and SigilASN1: the coded-error protocols every module's
        // error adopts, the one lock type, Base16.
        .target(
            name: "SigilBase"
        ),
        .target(
            name: "SigilCore",
            dependencies: ["SigilBase", "CGMP", "CSigilIntrinsics"],
            exclude: ["Field/generate_fields.py"]
        ),
        // Decryption primitives (AES-GCM, ECDH and its KDF, RSA-OAEP): apart from SigilCore, because a
        // release build links a whole module and no verifier of signed data needs any of them.
        .target(
            name: "SigilCipher",
            dependencies: ["SigilBase", "SigilCore", "SigilASN1", "SigilKeys", "CSigilCipherIntrinsics"]
        ),
        .target(
            name: "SigilASN1",
            dependencies: ["SigilBase"]
        ),
        // CBOR (RFC 8949): a strict decoder for the subset App Attest uses, and an encoder. No crypto.
        .target(
            name: "SigilCBOR",
            dependencies: ["SigilBase"]
        ),
        // COSE (RFC 9052/9053): COSE_Sign1 and COSE_Mac0 verification, header buckets, COSE_Key. Nothing
        // mdoc or Apple in it.
        .target(
            name: "SigilCOSE",
            dependencies: ["SigilBase", "SigilCore", "SigilCBOR"]
        ),
        // Mobile documents (ISO/IEC 18013-5 mdoc responses, in person and through 18013-7 Annex C on the
        // web): IssuerAuth and its IACA chain, the MSO, digests, DeviceAuth. Apart from everything Apple
        // so no App Store verifier links it.
        .target(
            name: "SigilMdoc",
            dependencies: [
                "SigilBase", "SigilCore", "SigilASN1", "SigilKeys", "SigilX509", "SigilJOSE", "SigilCBOR", "SigilCOSE", "SigilCipher",
            ]
        ),
        .target(
            name: "SigilKeys",
            dependencies: ["SigilBase", "SigilCore", "SigilASN1"]
        ),
        .target(
            name: "SigilX509",
            dependencies: ["SigilBase", "SigilCore", "SigilASN1", "SigilKeys"]
        ),
        // CRLs (RFC 5280 §5, §6.3): a module of their own, so a verifier that checks revocation
        // with OCSP only (App Store signed data) does not link them.
        .target(
            name: "SigilCRL",
            dependencies: ["SigilBase", "SigilCore", "SigilASN1", "SigilKeys", "SigilX509"]
        ),
        .target(
            name: "SigilOCSP",
            dependencies: ["SigilBase", "SigilCore", "SigilASN1", "SigilKeys", "SigilX509"]
        ),
        .target(
            name: "SigilPKCS7",
            dependencies: ["SigilBase", "SigilCore", "SigilASN1", "SigilKeys", "SigilX509"]
        ),
        // Apple's receipts over generic CMS: the app receipt and its verifier, the offline
        // verifyReceipt body, and the legacy (iOS 6) transaction receipts.
        .target(
            name: "SigilReceipts",
            dependencies: ["SigilBase", "SigilCore", "SigilASN1", "SigilKeys", "SigilX509", "SigilPKCS7", "SigilApplePKI"]
        ),
        .target(
            name: "SigilJOSE",
            dependencies: ["SigilBase", "SigilCore", "SigilASN1", "SigilKeys"]
        ),
        .target(
            name: "SigilAppStore",
            dependencies: ["SigilBase", "SigilCore", "SigilASN1", "SigilKeys", "SigilX509", "SigilJOSE", "SigilApplePKI"]
        ),
        // Apple's PKI facts, their one home: Apple's OIDs and their display names, the
        // marker-extension profile of each job, the Xcode certificate choice. Small on purpose: every
        // verifier of Apple's data links it.
        .target(
            name: "SigilApplePKI",
            dependencies: ["SigilASN1", "SigilX509"]
        ),
        // Apple Pay payment tokens: Apple's signature (CMS over the token's fields, chain to G3 under
        // the Apple Pay profile, signing time) and decryption (EC_v1, RSA_v1) with the merchant's keys.
        .target(
            name: "SigilApplePay",
            dependencies: [
                "SigilBase", "SigilCore", "SigilASN1", "SigilKeys", "SigilX509", "SigilPKCS7", "SigilJOSE", "SigilApplePKI",
                "SigilAppleRoots", "SigilCipher",
            ]
        ),
        // Apple's root certificates by job, pinned by fingerprint: Apple Root CA - G3 built in (from a
        // PyPI distribution, Vectors/apple-roots), the others read from a roots directory. Apart from
        // SigilApplePKI, so a verifier given its roots links no root store.
        .target(
            name: "SigilAppleRoots",
            dependencies: ["SigilBase", "SigilCore", "SigilASN1", "SigilX509", "SigilApplePKI"]
        ),
        // The tokens Sigil mints with an App Store Connect key (API bearer tokens, the Sign in with
        // Apple client secret, reader tokens, offer signatures) and the Sign in with Apple identity
        // token verifier: a module of their own so a verifier of App Store signed data links no
        // signing code of its own and no token verifier.
        .target(
            name: "SigilTokens",
            dependencies: ["SigilBase", "SigilCore", "SigilASN1", "SigilKeys", "SigilJOSE"]
        ),
        // The Advanced Commerce API request and response models and the typed in-app request
        // token: a module of their own so a verifier that never builds requests does not link them.
        .target(
            name: "SigilAdvancedCommerce",
            dependencies: ["SigilBase", "SigilAppStore", "SigilTokens"]
        ),
        // App Attest (attestations, assertions, fraud-metric receipts): a module of its own, beside
        // SigilAppStore and not above it, so an App Store verifier links none of it and it links no
        // App Store models.
        .target(
            name: "SigilAppAttest",
            dependencies: [
                "SigilReceipts", "SigilBase", "SigilCore", "SigilASN1", "SigilKeys", "SigilX509", "SigilPKCS7", "SigilCBOR",
                "SigilApplePKI",
            ]
        ),
        // Test fixtures: CertificateBuilder, AppleShapedTestPKI, AppReceiptBuilder. A product of its
        // own so that no verifier links builders ("module size is link size").
        .target(
            name: "SigilTestPKI",
            dependencies: [
                "SigilBase", "SigilCore", "SigilASN1", "SigilKeys", "SigilX509", "SigilPKCS7", "SigilReceipts", "SigilJOSE",
                "SigilAppStore", "SigilCBOR", "SigilApplePKI", "SigilCipher",
            ]
        ),
        // The request/answer layer of the C ABI, the Python package and the HTTP verification
        // service: decodes a request document, makes the one library call for its kind, encodes
        // the answer. No verification logic of its own; no Foundation (FoundationEssentials at most).
        .target(
            name: "SigilService",
            dependencies: [
                "SigilBase", "SigilCore", "SigilASN1", "SigilX509", "SigilJOSE", "SigilAppStore", "SigilApplePKI", "SigilAppleRoots",
                "SigilReceipts", "SigilAppAttest", "SigilTokens", "SigilApplePay", "SigilMdoc",
            ]
        ),
        // The C ABI: @_cdecl functions over SigilService, declared in include/sigil.h.
        .target(
            name: "SigilC",
            dependencies: ["SigilService", "SigilAppStore", "SigilBase"],
            exclude: ["include"]
        ),
        .target(
            name: "SigilHTTP",
            dependencies: [
                "SigilX509",
                "SigilBase", "SigilOCSP", "SigilCRL", "SigilAppStore", "SigilTokens", "SigilAdvancedCommerce", "SigilJOSE",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["AsyncHTTPClient"])),
            ],
            exclude: ["generate_error_codes.py", "app_store_api_error_codes.txt"]
        ),
        .executableTarget(
            name: "sigil",
            dependencies: [
                "SigilAppleRoots",
                "SigilBase",
                "SigilCore",
                "SigilASN1",
                "SigilKeys",
                "SigilX509",
                "SigilOCSP",
                "SigilCRL",
                "SigilHTTP",
                "SigilPKCS7",
                "SigilReceipts",
                "SigilTestPKI",
                "SigilJOSE",
                "SigilAppStore",
                "SigilAdvancedCommerce",
                "SigilTokens",
                "SigilApplePKI",
                "SigilAppAttest",
                "SigilApplePay",
                "SigilCipher",
                "SigilMdoc",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "SigilCoreTests",
            dependencies: ["SigilCore", "SigilASN1", "SigilBase", "SigilTestSupport", "sigil-ctime"]
        ),
        .testTarget(
            name: "SigilCipherTests",
            dependencies: ["SigilCipher", "SigilCore", "SigilBase", "SigilTestSupport"]
        ),
        .testTarget(
            name: "SigilApplePayTests",
            dependencies: [
                "SigilApplePay", "SigilCipher", "SigilCore", "SigilKeys", "SigilX509", "SigilJOSE", "SigilTestPKI", "SigilTestSupport",
                "SigilBase",
            ],
            exclude: ["pyca_decrypt.py"]
        ),
        .testTarget(
            name: "SigilASN1Tests",
            dependencies: ["SigilASN1", "SigilTestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "SigilCBORTests",
            dependencies: ["SigilCBOR", "SigilTestSupport"]
        ),
        .testTarget(
            name: "SigilCOSETests",
            dependencies: ["SigilCOSE", "SigilCBOR", "SigilCore", "SigilX509", "SigilTestSupport"]
        ),
        // mdoc verification against ISO/IEC 18013-5 Annex D, documents minted by PyPI's pymdoccbor and
        // pycose, and a hostile sender.
        .testTarget(
            name: "SigilMdocTests",
            dependencies: [
                "SigilMdoc", "SigilCOSE", "SigilCBOR", "SigilCore", "SigilCipher", "SigilKeys", "SigilX509", "SigilTestSupport",
            ],
            exclude: ["mdoc_peer.py"]
        ),
        // Every real file of the third-party data sets against a table of its verdict and facts.
        .testTarget(
            name: "SigilRealInputsTests",
            dependencies: [
                "SigilAppAttest", "SigilAppStore", "SigilCBOR", "SigilCore", "SigilJOSE", "SigilPKCS7", "SigilReceipts", "SigilASN1",
                "SigilX509",
                "SigilTestSupport", "SigilApplePKI",
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "SigilAppAttestTests",
            dependencies: [
                "SigilAppAttest", "SigilCBOR", "SigilPKCS7", "SigilX509", "SigilKeys", "SigilCore", "SigilTestPKI", "SigilTestSupport",
            ]
        ),
        .testTarget(
            name: "SigilKeysTests",
            dependencies: ["SigilKeys", "SigilCore", "SigilASN1", "SigilTestSupport"]
        ),
        .testTarget(
            name: "SigilX509Tests",
            dependencies: [
                "SigilX509", "SigilBase", "SigilCRL", "SigilKeys", "SigilCore", "SigilASN1", "SigilAppStore", "SigilPKCS7", "SigilApplePKI",
                "SigilTestPKI",
                "SigilTestSupport",
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "SigilOCSPTests",
            dependencies: [
                "SigilOCSP", "SigilCRL", "SigilHTTP", "SigilX509", "SigilKeys", "SigilCore", "SigilASN1", "SigilTestSupport", "SigilBase",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["AsyncHTTPClient"])),
            ]
        ),
        .testTarget(
            name: "SigilHTTPTests",
            dependencies: [
                "SigilHTTP", "SigilCRL", "SigilX509", "SigilAppStore", "SigilTokens", "SigilAdvancedCommerce", "SigilJOSE", "SigilKeys",
                "SigilCore",
                "SigilTestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["AsyncHTTPClient"])),
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "SigilPKCS7Tests",
            dependencies: [
                "SigilPKCS7", "SigilReceipts", "SigilApplePKI", "SigilX509", "SigilKeys", "SigilCore", "SigilASN1", "SigilAppStore",
                "SigilTestPKI", "SigilTestSupport",
            ]
        ),
        .testTarget(
            name: "SigilJOSETests",
            dependencies: ["SigilJOSE", "SigilKeys", "SigilCore", "SigilASN1", "SigilTestSupport"]
        ),
        .testTarget(
            name: "SigilAppStoreTests",
            dependencies: [
                "SigilAppleRoots",
                "SigilAppStore", "SigilTokens", "SigilApplePKI", "SigilAdvancedCommerce", "SigilJOSE", "SigilX509", "SigilOCSP",
                "SigilCRL", "SigilPKCS7",
                "SigilKeys",
                "SigilCore", "SigilASN1", "SigilBase", "SigilTestPKI", "SigilTestSupport",
            ]
        ),
        // The request/answer layer against the conformance file (Conformance/cases.json) on the shared
        // real data and the test PKI.
        .testTarget(
            name: "SigilServiceTests",
            dependencies: [
                "SigilService", "SigilAppStore", "SigilJOSE", "SigilASN1", "SigilKeys", "SigilCore", "SigilTestPKI", "SigilTestSupport",
                "SigilApplePay", "SigilBase", "SigilX509", "SigilMdoc", "SigilCBOR",
            ]
        ),
        // The DocC articles' code: ArticleSnippets.swift is generated from their ```swift blocks by
        // Scripts/extract-article-snippets (Scripts/check-generated keeps it in step);
        // ArticleSnippetTests runs each on data made by SigilTestPKI.
        .testTarget(
            name: "SigilDocumentationTests",
            dependencies: [
                "SigilAppStore", "SigilTokens", "SigilPKCS7", "SigilReceipts", "SigilX509", "SigilCRL", "SigilOCSP", "SigilHTTP",
                "SigilJOSE",
                "SigilKeys", "SigilCore", "SigilTestPKI", "SigilApplePay", "SigilMdoc", "SigilCipher", "SigilCBOR", "SigilTestSupport",
            ]
        ),
        .testTarget(
            name: "SigilCLITests",
            dependencies: [
                "sigil", "SigilBase", "SigilASN1", "SigilCore", "SigilX509", "SigilCBOR", "SigilTestPKI", "SigilTestSupport", "SigilKeys",
                "SigilCipher", "SigilMdoc", "SigilJOSE",
            ]
        ),
        // The valgrind constant-time check: a test-only C shim for memcheck client requests and
        // the harness it runs (Tests/SigilCoreTests/ConstantTimeTests.swift drives both).
        .target(
            name: "SigilCTimeShim",
            path: "Tests/SigilCTimeShim"
        ),
        .executableTarget(
            name: "sigil-ctime",
            dependencies: ["SigilCore", "SigilASN1", "SigilKeys", "SigilAppStore", "SigilTokens", "SigilCipher", "SigilCTimeShim"],
            path: "Tests/SigilCTime"
        ),
        // A program that only mints tokens (Scripts/check-link-boundaries reads its symbols: it must
        // link no App Store verifier, X.509, CMS or Apple PKI code). Not a product.
        .executableTarget(
            name: "tokens-only",
            dependencies: ["SigilTokens"],
            path: "Tests/TokensOnly"
        ),
        // What each libFuzzer target does with one input; also run over the committed regression
        // inputs by SigilFuzzTests. Not a product.
        .target(
            name: "SigilFuzzHarness",
            dependencies: [
                "SigilASN1", "SigilKeys", "SigilX509", "SigilCRL", "SigilOCSP", "SigilPKCS7", "SigilReceipts", "SigilJOSE", "SigilAppStore",
                "SigilTokens",
                "SigilCBOR", "SigilAppAttest", "SigilTestPKI", "SigilCore", "SigilApplePKI", "SigilService", "SigilApplePay",
                "SigilCOSE", "SigilMdoc", "SigilCipher",
            ]
        ),
        .testTarget(
            name: "SigilFuzzTests",
            dependencies: ["SigilFuzzHarness", "SigilAppAttest", "SigilTestSupport"]
        ),
        // Shared test helpers (seeded PRNG, vector locations, subprocess runner). Not a product.
        .target(
            name: "SigilTestSupport",
            path: "Tests/SigilTestSupport"
        ),
    ]
)

// SIGIL_TEST_TARGETS=A,B keeps only those test targets and what they depend on (targets, and the
// products made of nothing else). Scripts/test-all's step with the AsyncHTTPClient trait sets it:
// that step builds the package a second time (debug, the trait on) to run the HTTP and OCSP
// clients' tests over AsyncHTTPClient, and need not compile every other test target, the CLI and
// ArgumentParser again there. Unset, the package is declared in full.
if let only = ProcessInfo.processInfo.environment["SIGIL_TEST_TARGETS"] {
    let targets = Dictionary(uniqueKeysWithValues: package.targets.map { ($0.name, $0) })
    var needed = Set<String>()
    var pending = only.split(separator: ",").map(String.init)
    while let name = pending.popLast() {
        guard let target = targets[name], needed.insert(name).inserted else { continue }
        for dependency in target.dependencies {
            switch dependency {
            case .targetItem(let name, _), .byNameItem(let name, _): pending.append(name)
            default: break
            }
        }
    }
    package.targets.removeAll { !needed.contains($0.name) }
    package.products.removeAll { product in
        let made = (product as? Product.Library)?.targets ?? (product as? Product.Executable)?.targets ?? []
        return made.contains { !needed.contains($0) }
    }
}

// libFuzzer targets (Fuzz/run builds them with SIGIL_FUZZ=1 and -sanitize=fuzzer,address into
// .build-fuzz): one executable per FuzzHarness target whose main hands the harness to
// LLVMFuzzerRunDriver. They link only against libFuzzer, so they exist only in that build.
if ProcessInfo.processInfo.environment["SIGIL_FUZZ"] != nil {
    package.targets.append(.target(name: "SigilFuzzDriver", path: "Fuzz/Driver"))
    for name in [
        "der", "certificate", "chain", "ocsp", "receipt", "jws", "external-purchase-token", "crl", "cbor", "appattest", "request",
        "applepay", "mdoc", "hpke",
    ] {
        package.targets.append(
            .executableTarget(
                name: "fuzz-\(name)",
                dependencies: ["SigilFuzzHarness", "SigilFuzzDriver"],
                path: "Fuzz/Targets/\(name)"
            ))
    }
}
