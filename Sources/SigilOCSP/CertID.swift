import SigilASN1
import SigilCore
import SigilKeys
import SigilX509

/// CertID (RFC 6960 §4.1.1):
///
/// ```
/// CertID ::= SEQUENCE {
///     hashAlgorithm   AlgorithmIdentifier,
///     issuerNameHash  OCTET STRING, -- hash of the issuer's DN
///     issuerKeyHash   OCTET STRING, -- hash of the issuer's public key
///     serialNumber    CertificateSerialNumber }
/// ```
/// issuerNameHash is over the DER of the issuer's subject name; issuerKeyHash over the contents
/// of the issuer's subjectPublicKey BIT STRING (without tag, length and unused-bits octet).
/// SHA-1 is the default, as Apple's Swift library and openssl use; SHA-256/384/512 are selectable.
/// Two CertIDs match when they name the same certificate even under different hashes
/// (`matches(certificate:issuer:)`). A CertID whose hash algorithm Sigil does not know parses
/// (so the response around it can be shown, with the OID in `hashAlgorithmIdentifier`) but has
/// no `hashAlgorithm` and never matches a certificate.
public struct CertID: Hashable, Sendable {
    /// The hash, or nil when the CertID names one Sigil does not know.
    public let hashAlgorithm: HashAlgorithm?
    /// The encoded AlgorithmIdentifier as received (NULL or absent parameters both occur).
    public let hashAlgorithmIdentifier: AlgorithmIdentifier
    /// The hash of the issuer's DER-encoded name.
    public let issuerNameHash: [UInt8]
    /// The hash of the issuer's public key (the subjectPublicKey BIT STRING's contents).
    public let issuerKeyHash: [UInt8]
    /// The serial's two's-complement bytes.
    public let serialNumber: [UInt8]

    /// The CertID of `certificate` as issued by `issuer`.
    public init(certificate: Certificate, issuer: Certificate, hash: HashAlgorithm = .sha1) {
        hashAlgorithm = hash
        // openssl and Apple's libraries write the hash AlgorithmIdentifier with NULL parameters.
        hashAlgorithmIdentifier = AlgorithmIdentifier(algorithm: KeyOIDs.oid(hash), parameters: [0x05, 0x00])
        issuerNameHash = hash.hash(issuer.subject.derBytes)
        issuerKeyHash = hash.hash(issuer.subjectPublicKeyInfo.subjectPublicKey.bytes)
        serialNumber = certificate.serialNumber
    }

    /// Decodes a CertID; an unknown hash algorithm is kept for display and never matches.
    public init(node: ASN1Node) throws(OCSPError) {
        do {
            var reader = try ASN1SequenceReader(checking: node, identifier: .sequence)
            hashAlgorithmIdentifier = try AlgorithmIdentifier(node: reader.next(.sequence))
            issuerNameHash = try ASN1OctetString(node: reader.next(.octetString)).bytes
            issuerKeyHash = try ASN1OctetString(node: reader.next(.octetString)).bytes
            serialNumber = try ASN1Integer(node: reader.next(.integer)).twosComplementBytes
            try reader.finish()
        } catch {
            throw OCSPError.malformed(error)
        }
        guard let hash = KeyOIDs.hash(hashAlgorithmIdentifier.algorithm) else {
            // Unknown hash: kept for display; it can never match (see `matches`).
            hashAlgorithm = nil
            return
        }
        if let parameters = hashAlgorithmIdentifier.parameters, parameters != [0x05, 0x00] {
            throw OCSPError(.malformed, "CertID hash algorithm parameters must be NULL or absent")
        }
        guard issuerNameHash.count == hash.digestByteCount, issuerKeyHash.count == hash.digestByteCount else {
            throw OCSPError(.malformed, "CertID hashes are not \(hash.digestByteCount) bytes long")
        }
        hashAlgorithm = hash
    }

    /// Writes the CertID's DER.
    public func encode(into writer: inout DERWriter) {
        writer.appendSequence { seq in
            hashAlgorithmIdentifier.encode(into: &seq)
            seq.append(ASN1OctetString(issuerNameHash))
            seq.append(ASN1OctetString(issuerKeyHash))
            seq.appendPrimitive(.integer, content: serialNumber)  // bytes of a valid INTEGER (parsed or from a certificate)
        }
    }

    /// Whether this CertID names `certificate` issued by `issuer`, recomputing the hashes with this
    /// CertID's own algorithm (so a SHA-256 answer to a SHA-1 question still matches).
    public func matches(certificate: Certificate, issuer: Certificate) -> Bool {
        guard let hashAlgorithm else { return false }
        return self.sameCertificate(as: CertID(certificate: certificate, issuer: issuer, hash: hashAlgorithm))
    }

    /// Same hash algorithm, hashes and serial (the parameters' encoding may differ).
    public func sameCertificate(as other: CertID) -> Bool {
        hashAlgorithm != nil && hashAlgorithm == other.hashAlgorithm && issuerNameHash == other.issuerNameHash
            && issuerKeyHash == other.issuerKeyHash && serialNumber == other.serialNumber
    }
}
