// swift-tools-version:6.1
//
// A reference App Store Server Notifications V2 receiver built on Sigil: Hummingbird 2 for HTTP,
// SQLite (GRDB, embedded default) or PostgreSQL (PostgresNIO) for storage. A package of its own so
// that Sigil's library products keep depending on no Swift package; it uses Sigil through a path
// dependency with the AsyncHTTPClient trait on (its tests and benchmark send over that transport).
import PackageDescription

let package = Package(
    name: "NotificationReceiver",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "notification-receiver", targets: ["notification-receiver"]),
        .executable(name: "receiver-bench", targets: ["receiver-bench"]),
        // Issue 37: the stateless verification service (POST /v1/verify, /health, /v1/openapi.json).
        .executable(name: "verification-service", targets: ["verification-service"]),
    ],
    dependencies: [
        .package(name: "Sigil", path: "../..", traits: ["AsyncHTTPClient"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.24.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.30.0"),
    ],
    targets: [
        // The service: configuration, verification, storage, routes. A library so the tests and
        // the benchmark use the same store code to inspect the database.
        .target(
            name: "NotificationReceiverKit",
            dependencies: [
                .product(name: "SigilAppStore", package: "Sigil"),
                .product(name: "SigilAppAttest", package: "Sigil"),
                .product(name: "SigilCBOR", package: "Sigil"),
                .product(name: "SigilCore", package: "Sigil"),
                .product(name: "SigilPKCS7", package: "Sigil"),
                .product(name: "SigilReceipts", package: "Sigil"),
                .product(name: "SigilJOSE", package: "Sigil"),
                .product(name: "SigilX509", package: "Sigil"),
                .product(name: "SigilASN1", package: "Sigil"),
                .product(name: "SigilHTTP", package: "Sigil"),
                .product(name: "SigilTokens", package: "Sigil"),
                .product(name: "SigilService", package: "Sigil"),  // issue 37: VerificationRoutes
                .product(name: "SigilApplePay", package: "Sigil"),  // issue 38: kind applepay's merchant keys
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .executableTarget(
            name: "notification-receiver",
            dependencies: ["NotificationReceiverKit", .product(name: "SigilHTTP", package: "Sigil")]
        ),
        // Issue 37: the stateless verification service.
        .executableTarget(
            name: "verification-service",
            dependencies: ["NotificationReceiverKit", .product(name: "Logging", package: "swift-log")]
        ),
        // Notifications per second end to end against a receiver process (see README.md).
        .executableTarget(
            name: "receiver-bench",
            dependencies: [
                "NotificationReceiverKit",
                .product(name: "SigilAppStore", package: "Sigil"),
                .product(name: "SigilHTTP", package: "Sigil"),
                .product(name: "SigilTestPKI", package: "Sigil"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        .testTarget(
            name: "NotificationReceiverTests",
            dependencies: [
                "NotificationReceiverKit",
                "notification-receiver",
                "verification-service",  // issue 37
                .product(name: "SigilAppStore", package: "Sigil"),
                .product(name: "SigilAppAttest", package: "Sigil"),
                .product(name: "SigilCBOR", package: "Sigil"),
                .product(name: "SigilCore", package: "Sigil"),
                .product(name: "SigilHTTP", package: "Sigil"),
                .product(name: "SigilPKCS7", package: "Sigil"),
                .product(name: "SigilReceipts", package: "Sigil"),
                .product(name: "SigilASN1", package: "Sigil"),
                .product(name: "SigilTestPKI", package: "Sigil"),
                .product(name: "SigilJOSE", package: "Sigil"),
                .product(name: "SigilKeys", package: "Sigil"),
                .product(name: "SigilTokens", package: "Sigil"),
                .product(name: "SigilService", package: "Sigil"),  // issue 38: the replay store's records
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
    ]
)
