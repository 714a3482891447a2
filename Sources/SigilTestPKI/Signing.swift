import SigilASN1
import SigilCore
import SigilX509

/// What CertificateBuilder and CRLBuilder share: the ECDSA signature algorithm of an issuer key,
/// RFC 5280's time encoding, the Extensions list, and the signed envelope
/// `SEQUENCE { tbs, signatureAlgorithm, BIT STRING signature }` (§4.1.1.1–3, §5.1.1.1–3).
enum TestPKISigning {
    /// ecdsa-with-SHA256 for a P-256 issuer key, ecdsa-with-SHA384 for P-384: the AlgorithmIdentifier's DER and the hash.
    static func algorithm(for key: ECDSAPrivateKey) -> (der: [UInt8], hash: HashAlgorithm) {
        let (oid, hash): (ASN1ObjectIdentifier, HashAlgorithm) =
            key.curve == .p256 ? (X509OIDs.ecdsaWithSHA256, .sha256) : (X509OIDs.ecdsaWithSHA384, .sha384)
        var writer = DERWriter()
        writer.appendSequence { $0.append(oid) }
        return (writer.bytes, hash)
    }

    /// UTCTime through 2049, GeneralizedTime from 2050 (RFC 5280 §4.1.2.5, §5.1.2.4).
    static func time(_ seconds: Int64, into writer: inout DERWriter) throws(ASN1Error) {
        let components = try ASN1TimeComponents(secondsSinceEpoch: seconds)
        if components.year < 2050 { writer.append(try ASN1UTCTime(components)) } else { writer.append(ASN1GeneralizedTime(components)) }
    }

    /// `Extensions ::= SEQUENCE OF Extension` (criticality written only when true, as DER requires).
    static func extensions(_ list: [CertificateBuilder.ExtensionValue], into writer: inout DERWriter) {
        writer.appendSequence { sequence in
            for e in list {
                sequence.appendSequence { item in
                    item.append(e.oid)
                    if e.critical { item.appendPrimitive(.boolean, content: [0xFF]) }
                    item.appendPrimitive(.octetString, content: e.value)
                }
            }
        }
    }

    /// `tbs` signed with `key`: the whole signed structure's DER.
    static func signed(_ tbs: [UInt8], algorithm: (der: [UInt8], hash: HashAlgorithm), key: ECDSAPrivateKey) -> [UInt8] {
        let signature = key.signature(for: tbs, hash: algorithm.hash).derRepresentation
        var whole = DERWriter()
        whole.appendSequence { w in
            w.appendEncoded(tbs)
            w.appendEncoded(algorithm.der)
            w.append(ASN1BitString(wholeBytes: signature))
        }
        return whole.bytes
    }
}
