import SigilASN1
import SigilBase
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

    /// Decodes the structure; an ASN.1 error becomes `.malformed` ("RSAPublicKey").
    init(node: ASN1Node) throws(SigilKeysError) {
        var reader: ASN1SequenceReader
        let n: ASN1Integer
        let e: ASN1Integer
        do {
            reader = try ASN1SequenceReader(checking: node, identifier: .sequence)
            n = try ASN1Integer(node: reader.next(.integer))
            e = try ASN1Integer(node: reader.next(.integer))
        } catch {
            throw SigilKeysError(wrapping: error, as: .malformed, context: "RSAPublicKey")
        }
        guard let modulus = n.unsignedMagnitude, modulus.contains(where: { $0 != 0 }) else {
            throw SigilKeysError(.invalidKey, "RSA modulus is not positive")
        }
        guard let exponent = e.unsignedMagnitude, exponent.contains(where: { $0 != 0 }) else {
            throw SigilKeysError(.invalidKey, "RSA public exponent is not positive")
        }
        do {
            try reader.finish()
        } catch {
            throw SigilKeysError(wrapping: error, as: .malformed, context: "RSAPublicKey")
        }
        (self.modulus, publicExponent) = (modulus, exponent)
    }

    func encode(into writer: inout DERWriter) {
        writer.appendSequence { seq in
            seq.append(ASN1Integer(unsignedMagnitude: modulus))
            seq.append(ASN1Integer(unsignedMagnitude: publicExponent))
        }
    }
}
