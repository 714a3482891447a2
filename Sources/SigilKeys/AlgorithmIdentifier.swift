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
    public let algorithm: ASN1ObjectIdentifier
    public let parameters: [UInt8]?

    public init(algorithm: ASN1ObjectIdentifier, parameters: [UInt8]? = nil) {
        self.algorithm = algorithm
        self.parameters = parameters
    }

    public init(node: ASN1Node) throws {
        (algorithm, parameters) = try ASN1.sequence(node) { reader in
            let oid = try ASN1ObjectIdentifier(node: reader.next(.objectIdentifier))
            let parameters = reader.isAtEnd ? nil : Array(try reader.next().encodedBytes)
            return (oid, parameters)
        }
    }

    public func encode(into writer: inout DERWriter) {
        writer.appendSequence { seq in
            seq.append(algorithm)
            if let parameters { seq.appendEncoded(parameters) }
        }
    }

    /// The named-curve OID in EC parameters (RFC 5480 §2.1.1: `ECParameters ::= CHOICE { namedCurve … }`;
    /// implicitCurve and specifiedCurve are refused, as RFC 5480 requires of conforming CAs).
    func namedCurveParameter() throws -> ASN1ObjectIdentifier {
        guard let parameters else {
            throw SigilKeysError(.malformed, "id-ecPublicKey without curve parameters")
        }
        do {
            return try ASN1ObjectIdentifier(node: DER.parse(parameters))
        } catch {
            throw SigilKeysError(.unsupportedAlgorithm, "EC parameters must be a named curve OID")
        }
    }
}
