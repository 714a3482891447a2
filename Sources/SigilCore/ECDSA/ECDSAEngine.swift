/// ECDSA over one curve (FIPS 186-5 §6.4; SEC 1 v2 §4.1), generic so P-256 and P-384 share one
/// implementation that the compiler specialises for each.
enum ECDSAEngine<C: WeierstrassCurve> {
    typealias Point = ProjectivePoint<C>
    typealias Scalar = C.Scalar
    typealias Field = C.Field

    static var byteCount: Int { C.Scalar.byteCount }

    /// bits2int(digest) mod n (RFC 6979 §2.3.2, SEC 1 §4.1.3 step 5 / §4.1.4 step 3): the
    /// leftmost orderBits bits of the digest, as a scalar in Montgomery form. A shorter digest is
    /// taken whole. The digest is public.
    static func digestScalar(_ digest: [UInt8]) -> Scalar {
        digest.withUnsafeBytes { digestScalar($0) }
    }

    /// The same from a buffer, with no allocation: the leftmost `byteCount` bytes of a longer
    /// digest, a shorter one read as if left-padded with zeros.
    static func digestScalar(_ digest: UnsafeRawBufferPointer) -> Scalar {
        let width = byteCount
        let padding = max(0, width - digest.count)
        @inline(__always) func byte(_ j: Int) -> UInt64 { j < padding ? 0 : UInt64(digest[j - padding]) }
        // A value below 2^orderBits is below 2n, so one conditional subtraction reduces it.
        let raw = Scalar.fromLimbs { i in
            var word: UInt64 = 0
            for j in (width - 8 * (i + 1))..<(width - 8 * i) { word = (word << 8) | byte(j) }
            return word
        }
        return Scalar.fromCanonical(Scalar.reduceOnce(raw))
    }

    /// The x-coordinate of a (non-identity) point reduced mod n, as a scalar in Montgomery form
    /// (p < 2n for both curves, so one conditional subtraction suffices).
    static func xModOrder(_ x: Field) -> Scalar {
        let canonicalX = x.canonical
        return Scalar.fromCanonical(Scalar.reduceOnce(Scalar.fromLimbs(canonicalX.limb)))
    }

    // MARK: - Signing (constant time in the private key and the nonce)

    /// FIPS 186-5 §6.4.1 with the nonce from RFC 6979 §3.2 (deterministic, or hedged when
    /// `extraEntropy` is non-empty). Returns (r, s) as big-endian bytes. Low-s is not enforced:
    /// s is whatever the equations give, as FIPS 186-5 specifies; verifiers here accept both.
    ///
    /// Constant time in `privateKey` and the nonce: scalar multiplication by fixed windows with
    /// masked table reads, safegcd inversions that always run their full divstep bound,
    /// Montgomery arithmetic without branches. The only data-dependent branches are on values that are public or negligible:
    /// a rejected RFC 6979 candidate (probability < 2^-32) and r = 0 or s = 0 (probability ~2^-256).
    static func sign(
        privateKey d: Scalar, privateKeyBytes: [UInt8], digest: [UInt8], hash: HashAlgorithm,
        extraEntropy: [UInt8]
    ) -> (r: [UInt8], s: [UInt8]) {
        digest.withUnsafeBytes {
            sign(privateKey: d, privateKeyBytes: privateKeyBytes, digest: $0, hash: hash, extraEntropy: extraEntropy)
        }
    }

    /// The same with the digest in a buffer. Allocates only the two arrays it returns.
    static func sign(
        privateKey d: Scalar, privateKeyBytes: [UInt8], digest: UnsafeRawBufferPointer, hash: HashAlgorithm,
        extraEntropy: [UInt8]
    ) -> (r: [UInt8], s: [UInt8]) {
        let e = digestScalar(digest)
        // RFC 6979 §2.3.4 bits2octets(h1) = int2octets(bits2int(h1) mod q), on the stack (public).
        var hashedMessage: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)
        var nonces = withUnsafeMutableBytes(of: &hashedMessage) { raw in
            let octets = UnsafeMutableRawBufferPointer(rebasing: raw[0..<byteCount])
            e.canonical.writeRawBigEndian(into: octets)
            return RFC6979Generator(
                hash: hash, byteCount: byteCount, privateKey: privateKeyBytes,
                hashedMessage: UnsafeRawBufferPointer(octets), extraData: extraEntropy)
        }
        defer { nonces.wipe() }
        // The candidate on the stack (at most 48 bytes), wiped after each read.
        var candidateBytes: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)
        while true {
            let (k, belowOrder) = withUnsafeMutableBytes(of: &candidateBytes) { raw in
                let candidate = UnsafeMutableRawBufferPointer(rebasing: raw[0..<byteCount])
                nonces.nextCandidate(into: candidate)
                let scalar = Scalar.fromBigEndian(UnsafeRawBufferPointer(candidate))
                raw.initializeMemory(as: UInt8.self, repeating: 0)
                return scalar
            }
            // §3.2 h.3: accept 1 ≤ k ≤ n − 1. Declassifies only "this candidate was rejected".
            guard (belowOrder & !k.isZero).isTrueVartime else { continue }
            if let signature = sign(privateKey: d, nonce: k, digestScalar: e) { return signature }
        }
    }

    /// FIPS 186-5 §6.4.1 steps 4–8 for a given secret nonce k in [1, n − 1] (Montgomery form).
    /// Returns nil in the negligible case r = 0 or s = 0 (the caller takes the next nonce).
    /// Used directly by the NIST SigGen known-answer tests, which fix k.
    static func sign(privateKey d: Scalar, nonce k: Scalar, digestScalar e: Scalar) -> (r: [UInt8], s: [UInt8])? {
        // Steps 4–6: R = k·G, r = x_R mod n.
        let point = Point.generatorMultiplied(byCanonicalSecret: k.canonical)
        guard let (x, _) = point.affine else { return nil }  // impossible for k in [1, n−1]
        let r = xModOrder(x)
        if r.isZero.isTrueVartime { return nil }
        // Step 7: s = k⁻¹ (e + r·d) mod n.
        let s = k.invertedConstantTime * (e + r * d)
        if s.isZero.isTrueVartime { return nil }
        return (r.bigEndianBytes, s.bigEndianBytes)
    }

    /// d·G for a secret d (Montgomery form), as affine coordinates.
    static func publicPoint(privateKey d: Scalar) -> (x: Field, y: Field)? {
        Point.generatorMultiplied(byCanonicalSecret: d.canonical).affine
    }

    // MARK: - Verification (variable time: every input is public)

    /// FIPS 186-5 §6.4.2 / SEC 1 §4.1.4. `qx, qy` must be a validated public key (on the curve,
    /// not the identity). Variable time.
    static func verifyVartime(qx: Field, qy: Field, r rBytes: [UInt8], s sBytes: [UInt8], digest: [UInt8]) -> Bool {
        digest.withUnsafeBytes { verifyVartime(qx: qx, qy: qy, r: rBytes, s: sBytes, digest: $0) }
    }

    /// The same with the digest in a buffer. No allocation.
    static func verifyVartime(qx: Field, qy: Field, r rBytes: [UInt8], s sBytes: [UInt8], digest: UnsafeRawBufferPointer) -> Bool {
        // Step 1: r and s in [1, n − 1].
        guard rBytes.count == byteCount, sBytes.count == byteCount else { return false }
        let (r, rInRange) = Scalar.fromBigEndian(rBytes)
        let (s, sInRange) = Scalar.fromBigEndian(sBytes)
        guard rInRange.isTrueVartime, sInRange.isTrueVartime,
            !r.isZero.isTrueVartime, !s.isZero.isTrueVartime
        else { return false }
        // Steps 2–3: e = bits2int(H(m)) mod n.
        let e = digestScalar(digest)
        // Step 4: w = s⁻¹ (s is public: GMP's variable-time inversion, not safegcd); step 5:
        // u1 = e·w, u2 = r·w.
        let w = s.invertedVartime
        let u1 = (e * w).canonical
        let u2 = (r * w).canonical
        // Step 6: R = u1·G + u2·Q; reject the identity. With a cached table for Q (a key seen
        // before; VerificationKeyTables.swift) the sum takes no doublings; otherwise wNAF.
        let q = AffinePoint<C>(x: qx, y: qy)
        let point: JacobianPoint<C>
        if let table = C.keyTables.table(for: q) {
            point = JacobianPoint<C>.doubleMultiplyVartime(u1, u2, table: table)
        } else {
            point = JacobianPoint<C>.doubleMultiplyVartime(u1, u2, q)
        }
        if point.isIdentityVartime { return false }
        // Steps 7–8: v = x_R mod n; valid iff v = r. Since x_R < p < 2n, x_R mod n = r exactly when
        // x_R = r or x_R = r + n (the latter possible only when r + n < p). Both are checked as
        // X = candidate·Z² in Jacobian coordinates, which needs no inversion.
        let rAsField = Field.fromCanonical(Field.fromLimbs(r.canonical.limb))
        if point.hasAffineXVartime(rAsField) { return true }
        if let rPlusN = rPlusOrderBelowP(r) { return point.hasAffineXVartime(rPlusN) }
        return false
    }

    /// r + n as a base-field element when r + n < p (public values), else nil.
    static func rPlusOrderBelowP(_ r: Scalar) -> Field? {
        let canonicalR = r.canonical
        var carry: UInt64 = 0
        let sum = Field.fromLimbs { i in
            let x = UInt128(canonicalR.limb(i)) &+ UInt128(Scalar.modulus.limb(i)) &+ UInt128(carry)
            carry = UInt64(truncatingIfNeeded: x &>> 64)
            return UInt64(truncatingIfNeeded: x)
        }
        guard carry == 0, Choice.lessThan(sum.limb, Field.modulus.limb, count: Field.limbCount).isTrueVartime else { return nil }
        return Field.fromCanonical(sum)
    }

    /// Parses and validates an affine public point from big-endian coordinates
    /// (SEC 1 §3.2.2.1: coordinates below p, on the curve; the identity has no affine form).
    static func publicPoint(x xBytes: [UInt8], y yBytes: [UInt8]) -> (x: Field, y: Field)? {
        guard xBytes.count == Field.byteCount, yBytes.count == Field.byteCount else { return nil }
        let (x, xOK) = Field.fromBigEndian(xBytes)
        let (y, yOK) = Field.fromBigEndian(yBytes)
        guard (xOK & yOK & Point.isOnCurve(x: x, y: y)).isTrueVartime else { return nil }
        return (x, y)
    }

    /// SEC 1 §2.3.4 step 2.4: y from x and the parity of y, or nil when x is not on the curve.
    static func decompress(x xBytes: [UInt8], yIsOdd: Bool) -> (x: Field, y: Field)? {
        let (x, xOK) = Field.fromBigEndian(xBytes)
        guard xOK.isTrueVartime else { return nil }
        let rhs = x.squared * x - (x + x + x) + C.b
        let (root, exists) = rhs.squareRoot
        guard exists.isTrueVartime else { return nil }
        let rootIsOdd = root.canonical.limb(0) & 1 == 1
        return (x, rootIsOdd == yIsOdd ? root : root.negated)
    }
}
