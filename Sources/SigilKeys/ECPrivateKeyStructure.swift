import SigilASN1
import SigilBase
import SigilCore

/// ECPrivateKey (SEC 1 v2 §C.4; RFC 5915 §3):
///
/// ```
/// ECPrivateKey ::= SEQUENCE {
///     version        INTEGER { ecPrivkeyVer1(1) } (ecPrivkeyVer1),
///     privateKey     OCTET STRING,
///     parameters [0] ECParameters {{ NamedCurve }} OPTIONAL,
///     publicKey  [1] BIT STRING OPTIONAL }
/// ```
/// The wire form; ``ECDSAPrivateKey`` is the semantic type.
struct ECPrivateKeyStructure {
    /// The scalar's octets: a `var` so that key loading can wipe them once the key is made.
    var privateKey: [UInt8]
    let namedCurve: ASN1ObjectIdentifier?
    let publicKey: ASN1BitString?

    /// Decodes the structure; an ASN.1 error becomes `.malformed` with `context` (the format
    /// being read: "PKCS#8", "ECPrivateKey").
    init(node: ASN1Node, context: String) throws(SigilKeysError) {
        var reader: ASN1SequenceReader
        let version: ASN1Integer
        do {
            reader = try ASN1SequenceReader(checking: node, identifier: .sequence)
            version = try ASN1Integer(node: reader.next(.integer))
        } catch {
            throw SigilKeysError(wrapping: error, as: .malformed, context: context)
        }
        guard version.int64Value == 1 else {
            throw SigilKeysError(.unsupportedVersion, "ECPrivateKey version must be 1, found \(version)")
        }
        do {
            privateKey = try ASN1OctetString(node: reader.next(.octetString)).bytes
            if let tagged = reader.nextIfPresent(.contextSpecific(0)) {
                namedCurve = try ASN1ObjectIdentifier(node: ASN1.explicitInner(tagged, tag: .contextSpecific(0)))
            } else {
                namedCurve = nil
            }
            if let tagged = reader.nextIfPresent(.contextSpecific(1)) {
                publicKey = try ASN1BitString(node: ASN1.explicitInner(tagged, tag: .contextSpecific(1)))
            } else {
                publicKey = nil
            }
            try reader.finish()
        } catch {
            throw SigilKeysError(wrapping: error, as: .malformed, context: context)
        }
    }

    init(privateKey: [UInt8], namedCurve: ASN1ObjectIdentifier?, publicKey: ASN1BitString?) {
        self.privateKey = privateKey
        self.namedCurve = namedCurve
        self.publicKey = publicKey
    }

    func encode(into writer: inout DERWriter) {
        writer.appendSequence { seq in
            seq.append(ASN1Integer(1))
            seq.append(ASN1OctetString(privateKey))
            if let namedCurve { seq.appendExplicit(.contextSpecific(0)) { $0.append(namedCurve) } }
            if let publicKey { seq.appendExplicit(.contextSpecific(1)) { $0.append(publicKey) } }
        }
    }

    /// The key, checked: the curve is the one given by the outer structure (PKCS#8) or by the
    /// [0] parameters, they agree when both exist, the scalar is in range, and an embedded public
    /// key equals d·G.
    func key(outerCurve: ECCurve?) throws(SigilKeysError) -> ECDSAPrivateKey {
        var curve = outerCurve
        if let namedCurve {
            guard let inner = KeyOIDs.curve(namedCurve) else {
                throw SigilKeysError(.unsupportedAlgorithm, "curve \(namedCurve) is not P-256 or P-384")
            }
            if let outerCurve, outerCurve != inner {
                throw SigilKeysError(.inconsistent, "the key's curve parameters disagree")
            }
            curve = inner
        }
        guard let curve else { throw SigilKeysError(.malformed, "ECPrivateKey names no curve") }
        let key: ECDSAPrivateKey
        do {
            key = try ECDSAPrivateKey(rawRepresentation: privateKey, curve: curve)
        } catch {
            throw SigilKeysError(.invalidKey, error.reason)
        }
        if let publicKey {
            guard publicKey.unusedBits == 0,
                let embedded = try? ECDSAPublicKey(sec1Representation: publicKey.bytes, curve: curve),
                embedded == key.publicKey
            else {
                throw SigilKeysError(.inconsistent, "the embedded public key does not match the private key")
            }
        }
        return key
    }
}
