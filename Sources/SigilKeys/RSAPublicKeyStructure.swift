import SigilASN1
import SigilCore

/// PKCS#1 RSAPublicKey (RFC 8017 §A.1.1):
///
/// ```
/// RSAPublicKey ::= SEQUENCE {
///     modulus           INTEGER,  -- n
///     publicExponent    INTEGER   -- e
/// }
/// ```
/// Both integers must be positive (a negative or zero value is a malformed key). This is the
/// wire form; the semantic type is SigilCore's `RSAPublicKey`, which applies the size rules.
struct RSAPublicKeyStructure {
    let modulus: [UInt8]
    let publicExponent: [UInt8]

    init(modulus: [UInt8], publicExponent: [UInt8]) {
        self.modulus = modulus
        self.publicExponent = publicExponent
    }

    init(node: ASN1Node) throws {
        (modulus, publicExponent) = try ASN1.sequence(node) { reader in
            let n = try ASN1Integer(node: reader.next(.integer))
            let e = try ASN1Integer(node: reader.next(.integer))
            guard let modulus = n.unsignedMagnitude, modulus.contains(where: { $0 != 0 }) else {
                throw SigilKeysError(.invalidKey, "RSA modulus is not positive")
            }
            guard let exponent = e.unsignedMagnitude, exponent.contains(where: { $0 != 0 }) else {
                throw SigilKeysError(.invalidKey, "RSA public exponent is not positive")
            }
            return (modulus, exponent)
        }
    }

    func encode(into writer: inout DERWriter) {
        writer.appendSequence { seq in
            seq.append(ASN1Integer(unsignedMagnitude: modulus))
            seq.append(ASN1Integer(unsignedMagnitude: publicExponent))
        }
    }
}
