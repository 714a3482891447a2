extension ECDSAPrivateKey {
    /// The elliptic-curve Diffie–Hellman shared secret with `peer`, P-256 only: the x-coordinate of
    /// d·Q, 32 bytes big-endian (SEC 1 §3.3.1; NIST SP 800-56A Rev. 3 §5.7.1.2, "Z").
    ///
    /// `peer` is a validated point (``ECDSAPublicKey`` refuses one off the curve or the identity, SP
    /// 800-56A §5.6.2.3.3's full validation since P-256 has cofactor 1). d·Q is the constant-time
    /// fixed-window multiplication (`ProjectivePoint.multiplied(byCanonicalSecret:)`: signed 5-bit
    /// windows from the top, five Jacobian doublings and one Jacobian addition per window, the
    /// table entry of each window fetched by reading all 16 with masks and negated by a masked
    /// select), so neither the sequence of operations nor any address depends on d. Its table is
    /// 16 multiples of Q (8 doublings, 7 additions), not the 129 rows a comb over Q needs: with a
    /// fresh Q every call (HPKE, an mdoc's deviceMac, Apple Pay's EC_v1), building a comb's table
    /// cost more than the multiplication itself.
    /// Only "the product is the identity" is declassified, and it throws (it cannot happen for
    /// d in [1, n − 1] and a valid peer point, but Z = identity is an error in §5.7.1.2 and is never
    /// returned as zeros). Throws ``SigilCoreError/Code/invalidKey`` for a P-384 key or a peer on
    /// another curve.
    public func sharedSecret(with peer: ECDSAPublicKey) throws(SigilCoreError) -> [UInt8] {
        let q = try Self.ecdhPeerPoint(curve: curve, peer: peer)
        // The scalar read from the key's own storage (`rawRepresentation` would make a copy to wipe);
        // validated when the key was made.
        let (d, _) = withSecretBytes { P256Curve.Scalar.fromBigEndian($0) }
        let product = ProjectivePoint<P256Curve>(x: q.x, y: q.y, z: .one).multiplied(byCanonicalSecret: d.canonical)
        guard let affine = product.affine else {
            throw SigilCoreError(.invalidPoint, "the shared point is the identity (SP 800-56A §5.7.1.2)")
        }
        return affine.x.bigEndianBytes
    }

    /// The same secret through the signing path's comb over a width-2 table of Q built for the call
    /// (what ``sharedSecret(with:)`` did before the fixed window): kept for Benchmarks/ only, which
    /// times both in one run.
    @_spi(Benchmarks)
    public func sharedSecretByComb(with peer: ECDSAPublicKey) throws(SigilCoreError) -> [UInt8] {
        let q = try Self.ecdhPeerPoint(curve: curve, peer: peer)
        let table = FixedBaseTable<P256Curve>(base: AffinePoint(x: q.x, y: q.y), width: 2)
        let (d, _) = withSecretBytes { P256Curve.Scalar.fromBigEndian($0) }
        let product = ProjectivePoint<P256Curve>.generatorMultiplied(byCanonicalSecret: d.canonical, table: table)
        guard let affine = product.affine else {
            throw SigilCoreError(.invalidPoint, "the shared point is the identity (SP 800-56A §5.7.1.2)")
        }
        return affine.x.bigEndianBytes
    }

    /// Both keys on P-256 and the peer's point on the curve.
    static func ecdhPeerPoint(curve: ECCurve, peer: ECDSAPublicKey) throws(SigilCoreError) -> AffinePoint<P256Curve> {
        guard curve == .p256, peer.curve == .p256 else {
            throw SigilCoreError(.invalidKey, "ECDH is implemented for P-256 keys only, not \(curve.rawValue) with \(peer.curve.rawValue)")
        }
        guard let q = ECDSAEngine<P256Curve>.publicPoint(x: peer.x, y: peer.y) else {
            throw SigilCoreError(.invalidPoint, "the peer's public key is not a point on P-256")
        }
        return AffinePoint(x: q.x, y: q.y)
    }
}
