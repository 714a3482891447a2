import SigilASN1

/// AlgorithmIdentifier (RFC 5280 §4.1.1.2):
///
/// ```
/// AlgorithmIdentifier ::= SEQUENCE {
///     algorithm   OBJECT IDENTIFIER,
///     parameters  ANY DEFINED BY algorithm OPTIONAL }
/// ```
/// The parameters are kept as their encoded bytes (nil when absent), so nothing is lost.
public struct AlgorithmIdentifier: Hashable, Sendable {
    /// The algorithm's object identifier.
    public let algorithm: ASN1ObjectIdentifier
    /// The parameters' DER as encoded (NULL is `[0x05, 0x00]`), or nil when absent.
    public let parameters: [UInt8]?

    /// An identifier for `algorithm` with `parameters` (DER) when given.
    public init(algorithm: ASN1ObjectIdentifier, parameters: [UInt8]? = nil) {
        self.algorithm = algorithm
        self.parameters = parameters
    }

    /// Decodes an AlgorithmIdentifier SEQUENCE.
    public init(node: ASN1Node) throws(ASN1Error) {
        var reader = try ASN1SequenceReader(checking: node, identifier: .sequence)
        algorithm = try ASN1ObjectIdentifier(node: reader.next(.objectIdentifier))
        parameters = reader.isAtEnd ? nil : Array(try reader.next().encodedBytes)
        try reader.finish()
    }

    /// Writes the AlgorithmIdentifier's DER.
    public func encode(into writer: inout DERWriter) {
        writer.appendSequence { seq in
            seq.append(algorithm)
            if let parameters { seq.appendEncoded(parameters) }
        }
    }

    /// The DER of the namedCurve OIDs of P-256 (1.2.840.10045.3.1.7) and P-384 (1.3.132.0.34).
    static let secp256r1DER: [UInt8] = [0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]
    static let secp384r1DER: [UInt8] = [0x06, 0x05, 0x2B, 0x81, 0x04, 0x00, 0x22]

    /// The named-curve OID in EC parameters (RFC 5480 §2.1.1: `ECParameters ::= CHOICE { namedCurve … }`;
    /// implicitCurve and specifiedCurve are refused, as RFC 5480 requires of conforming CAs).
    func namedCurveParameter() throws(SigilKeysError) -> ASN1ObjectIdentifier {
        guard let parameters else {
            throw SigilKeysError(.malformed, "id-ecPublicKey without curve parameters")
        }
        // The two curves Sigil uses, recognised by their exact DER (what parsing them would give).
        if parameters == AlgorithmIdentifier.secp256r1DER { return KeyOIDs.secp256r1 }
        if parameters == AlgorithmIdentifier.secp384r1DER { return KeyOIDs.secp384r1 }
        do {
            return try ASN1ObjectIdentifier(node: DER.parse(parameters))
        } catch {
            throw SigilKeysError(.unsupportedAlgorithm, "EC parameters must be a named curve OID")
        }
    }
}
