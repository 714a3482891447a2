/// A prime-order short Weierstrass curve y² = x³ − 3x + b (a = −3), as P-256 and P-384 are.
protocol WeierstrassCurve: Sendable {
    associatedtype Field: MontgomeryFieldElement
    associatedtype Scalar: MontgomeryFieldElement

    /// b in Montgomery form.
    static var b: Field { get }
    static var generator: ProjectivePoint<Self> { get }
    /// Bit length of the group order n (equal to the field size here).
    static var orderBits: Int { get }
    /// The fixed-base table of G for signing and key derivation (GeneratorTable.swift: a signed
    /// comb with masked scans), built once on first use.
    static var signingGeneratorTable: FixedBaseTable<Self> { get }
    /// wNAF width for u1·G in verification, and the affine odd multiples (2i + 1)·G for
    /// i < 2^(width − 2) (generated: Field/Generated/GeneratorOddMultiples.swift).
    static var generatorWNAFWidth: Int { get }
    static var generatorOddMultiples: [AffinePoint<Self>] { get }
    /// The fixed-base verification table for G (FixedBaseTableVartime.swift), built once on first use.
    static var verificationGeneratorTable: FixedBaseTable<Self> { get }
    /// The bounded cache of verification tables for public keys (VerificationKeyTables.swift).
    static var keyTables: VerificationKeyTableCache<Self> { get }
}

/// Window widths of the fixed-base tables: 2^(w−1) affine points per row. Signing's comb over G
/// uses w = 6 (P-256: 43 rows, 88 KiB; P-384: 65 rows, 200 KiB): by callgrind, k·G on P-256
/// costs 310k instructions at w = 4, 263k at 5, 243k at 6 and 253k at 7 (the masked scan of
/// a row grows with 2^(w−1) while the rows shrink with 1/w). Verification's tables cost one
/// mixed addition a row and nothing per entry, so wider is faster until memory and build time
/// say stop:
/// - G: w = 11 (P-256: 24 rows, 1.5 MiB; P-384: 35 rows, 3.3 MiB), built once per process, the
///   first time a key with a table of its own verifies (a process that verifies each key once
///   never builds it);
/// - a public key: w = 9 (P-256: 29 rows, 464 KiB, built in about 1.7 ms; P-384: 43 rows,
///   1 MiB, about 7.6 ms), built the second time the key verifies; at most 16 keys per curve
///   are kept (at most 7.3 MiB and 16.1 MiB).
/// Against the previous (8, 7), `sigil-bench --probe` on one App Store transaction (one repeated
/// P-256 leaf key, one P-384 intermediate key): ES256 13.6 → 11.4 µs, the chain's P-384 leaf
/// signature about 44 → 35 µs (2026-11-28, thread CPU time). (10, 8) gave about half of that gain.
///
/// Debug builds keep the narrower (8, 7): their arithmetic is 10–50× slower and a table's build
/// cost doubles with each bit of width, so the first key verified twice would hold up its
/// caller for seconds (the receiver's debug tests answer Apple's POSTs within 4 s), where a
/// release build spends about 11 ms (P-256) and 40 ms (P-384) once. The verdicts are the same at
/// every width (ECReferenceTests checks widths 2 to 12 against GMP).
enum VerificationTableWidth {
    static let signingGenerator = 6
    #if DEBUG
    static let generator = 8
    static let publicKey = 7
    #else
    static let generator = 11
    static let publicKey = 9
    #endif
    static let cachedKeysPerCurve = 16
}

enum P256Curve: WeierstrassCurve {
    typealias Field = P256Field
    typealias Scalar = P256Scalar
    static let b = P256Constants.b
    static let generator = ProjectivePoint<P256Curve>(x: P256Constants.generatorX, y: P256Constants.generatorY, z: .one)
    static let orderBits = 256
    static let signingGeneratorTable = FixedBaseTable<P256Curve>(
        base: generatorOddMultiples[0], width: VerificationTableWidth.signingGenerator)
    static let verificationGeneratorTable = FixedBaseTable<P256Curve>(
        base: generatorOddMultiples[0], width: VerificationTableWidth.generator)
    static let keyTables = VerificationKeyTableCache<P256Curve>(
        capacity: VerificationTableWidth.cachedKeysPerCurve,
        width: VerificationTableWidth.publicKey)
}

enum P384Curve: WeierstrassCurve {
    typealias Field = P384Field
    typealias Scalar = P384Scalar
    static let b = P384Constants.b
    static let generator = ProjectivePoint<P384Curve>(x: P384Constants.generatorX, y: P384Constants.generatorY, z: .one)
    static let orderBits = 384
    static let signingGeneratorTable = FixedBaseTable<P384Curve>(
        base: generatorOddMultiples[0], width: VerificationTableWidth.signingGenerator)
    static let verificationGeneratorTable = FixedBaseTable<P384Curve>(
        base: generatorOddMultiples[0], width: VerificationTableWidth.generator)
    static let keyTables = VerificationKeyTableCache<P384Curve>(
        capacity: VerificationTableWidth.cachedKeysPerCurve,
        width: VerificationTableWidth.publicKey)
}
