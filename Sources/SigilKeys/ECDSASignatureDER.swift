import SigilASN1
import SigilCore

/// ECDSA-Sig-Value (RFC 5480 §2.2.3; SEC 1 §C.8; X9.62):
///
/// ```
/// ECDSA-Sig-Value ::= SEQUENCE {
///     r  INTEGER,
///     s  INTEGER }
/// ```
/// Read with strict DER: minimal INTEGERs, no trailing bytes at any level, r and s non-negative and
/// no wider than the curve (range against n is checked at verification).
extension ECDSASignature {
    /// Reads a DER ECDSA-Sig-Value for `curve`, strictly (see above).
    public init<Bytes: Collection>(derEncoded bytes: Bytes, curve: ECCurve) throws(SigilKeysError) where Bytes.Element == UInt8 {
        var reader: ASN1SequenceReader
        let r: ASN1Integer
        let s: ASN1Integer
        do {
            reader = try ASN1SequenceReader(checking: DER.parse(bytes), identifier: .sequence)
            r = try ASN1Integer(node: reader.next(.integer))
            s = try ASN1Integer(node: reader.next(.integer))
        } catch {
            throw SigilKeysError(.invalidSignatureEncoding, "ECDSA-Sig-Value: \(error)")
        }
        guard let rMagnitude = r.unsignedMagnitude, let sMagnitude = s.unsignedMagnitude else {
            throw SigilKeysError(.invalidSignatureEncoding, "r and s must be non-negative")
        }
        do {
            try reader.finish()
        } catch {
            throw SigilKeysError(.invalidSignatureEncoding, "ECDSA-Sig-Value: \(error)")
        }
        do {
            try self.init(r: rMagnitude, s: sMagnitude, curve: curve)
        } catch {
            throw SigilKeysError(.invalidSignatureEncoding, error.reason)
        }
    }

    /// The DER ECDSA-Sig-Value.
    public var derRepresentation: [UInt8] {
        var writer = DERWriter()
        writer.appendSequence { seq in
            seq.append(ASN1Integer(unsignedMagnitude: r))
            seq.append(ASN1Integer(unsignedMagnitude: s))
        }
        return writer.bytes
    }
}
