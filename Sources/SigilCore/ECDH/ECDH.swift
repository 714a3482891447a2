extension ECDSAPrivateKey {
    /// The elliptic-curve Diffie–Hellman shared secret with `peer`, P-256 only: the x-coordinate of
    /// d·Q, 32 bytes big-endian (SEC 1 §3.3.1; NIST SP 800-56A Rev. 3 §5.7.1.2, "Z").
    ///
    /// `peer` is a validated point (``ECDSAPublicKey`` refuses one off the curve or the identity, SP
    /// 800-56A §5.6.2.3.3's full validation since P-256 has cofactor 1). d·Q runs through the
    /// signing path's constant-time comb (every row of the table read in full with masks, a fixed
    /// sequence of additions), over a table of multiples of Q built for this call — Q is public,
    /// so the table is built in variable time, as verification builds its key tables; width 2
    /// (129 rows of 2 points), because building the table dominates the cost. Reusing the
    /// signing comb adds no second scalar multiplication to SigilCore, which every verifier links.
    /// Only "the product is the identity" is declassified, and it throws (it cannot happen for
    /// d in [1, n − 1] and a valid peer point, but Z = identity is an error in §5.7.1.2 and is never
    /// returned as zeros). Throws ``SigilCoreError/Code/invalidKey`` for a P-384 key or a peer on
    /// another curve.
    public func sharedSecret(with peer: ECDSAPublicKey) throws(SigilCoreError) -> [UInt8] {
        guard curve == .p256, peer.curve == .p256 else {
            throw SigilCoreError(.invalidKey, "ECDH is implemented for P-256 keys only, not \(curve.rawValue) with \(peer.curve.rawValue)")
        }
        guard let q = ECDSAEngine<P256Curve>.publicPoint(x: peer.x, y: peer.y) else {
            throw SigilCoreError(.invalidPoint, "the peer's public key is not a point on P-256")
        }
        let table = FixedBaseTable<P256Curve>(base: AffinePoint(x: q.x, y: q.y), width: 2)
        // The scalar read from the key's own storage (`rawRepresentation` would make a copy to wipe);
        // validated when the key was made.
        let (d, _) = withSecretBytes { P256Curve.Scalar.fromBigEndian($0) }
        let product = ProjectivePoint<P256Curve>.generatorMultiplied(byCanonicalSecret: d.canonical, table: table)
        guard let affine = product.affine else {
            throw SigilCoreError(.invalidPoint, "the shared point is the identity (SP 800-56A §5.7.1.2)")
        }
        return affine.x.bigEndianBytes
    }
}
