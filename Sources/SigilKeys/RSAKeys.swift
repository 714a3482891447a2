import SigilASN1
import SigilBase
import SigilCore

/// RSA public keys in every encoding Sigil meets: SubjectPublicKeyInfo (rsaEncryption, RFC 3279
/// §2.3.1, or id-RSASSA-PSS, RFC 4055 §1.2), PKCS#1 RSAPublicKey (RFC 8017 §A.1.1), PEM of both
/// ("PUBLIC KEY", "RSA PUBLIC KEY"), and JWK's `n` and `e` (RFC 7518 §6.3.1).
public struct RSAPublicKeyInfo: Hashable, Sendable {
    /// The key: modulus and exponent.
    public let key: RSAPublicKey
    /// For an id-RSASSA-PSS key with parameters, the only parameters it may be used with
    /// (RFC 4055 §1.2); nil for rsaEncryption keys and PSS keys without parameters.
    public let pssRestriction: RSAPublicKey.PSSParameters?
    /// Whether the SPKI named id-RSASSA-PSS (the key may then only verify PSS signatures).
    public let isPSSOnly: Bool

    /// Wraps `key`, restricted to `pssRestriction` and to PSS when the SPKI says so.
    public init(key: RSAPublicKey, pssRestriction: RSAPublicKey.PSSParameters? = nil, isPSSOnly: Bool = false) {
        self.key = key
        self.pssRestriction = pssRestriction
        self.isPSSOnly = isPSSOnly || pssRestriction != nil
    }

    /// From a parsed SubjectPublicKeyInfo whose algorithm is rsaEncryption (parameters NULL) or
    /// id-RSASSA-PSS (parameters absent or RSASSA-PSS-params).
    public init(spki: SubjectPublicKeyInfo, minimumModulusBits: Int = RSAPublicKey.defaultMinimumModulusBits)
        throws(SigilKeysError)
    {
        var restriction: RSAPublicKey.PSSParameters?
        let pssOnly: Bool
        switch spki.algorithm.algorithm {
        case KeyOIDs.rsaEncryption:
            guard spki.algorithm.parameters == [0x05, 0x00] else {
                throw SigilKeysError(.malformed, "rsaEncryption parameters must be NULL (RFC 3279 §2.3.1)")
            }
            pssOnly = false
        case KeyOIDs.rsassaPSS:
            if let parameters = spki.algorithm.parameters {
                restriction = try RSASSAPSSParameters(derEncoded: parameters).parameters
            }
            pssOnly = true
        default:
            throw SigilKeysError(.unsupportedAlgorithm, "public key algorithm \(spki.algorithm.algorithm) is not RSA")
        }
        guard spki.subjectPublicKey.unusedBits == 0 else {
            throw SigilKeysError(.malformed, "the RSA key BIT STRING must have no unused bits")
        }
        let key = try RSAPublicKey(pkcs1DER: spki.subjectPublicKey.bytes, minimumModulusBits: minimumModulusBits)
        self.init(key: key, pssRestriction: restriction, isPSSOnly: pssOnly)
    }

    /// Whether `spki` holds an RSA key that SigilCore's `RSAPublicKey` refuses only for its size: a
    /// well-formed RSAPublicKey whose modulus has fewer than `RSAPublicKey.smallestAllowedModulusBits`
    /// bits (its other rules are checked after the size, in that order). Such a key can verify nothing;
    /// a certificate keeps it as an unknown key rather than refusing the certificate.
    package static func isBelowSmallestAllowedSize(_ spki: SubjectPublicKeyInfo) -> Bool {
        guard spki.subjectPublicKey.unusedBits == 0, let node = try? DER.parse(spki.subjectPublicKey.bytes),
            let structure = try? RSAPublicKeyStructure(node: node)
        else { return false }
        let modulus = structure.modulus.drop { $0 == 0 }
        let exponent = structure.publicExponent.drop { $0 == 0 }
        guard let first = modulus.first, exponent.count <= modulus.count else { return false }
        let bits = (modulus.count - 1) * 8 + (8 - first.leadingZeroBitCount)
        return bits < RSAPublicKey.smallestAllowedModulusBits
    }

    /// Reads a DER SubjectPublicKeyInfo of an RSA key (rsaEncryption or id-RSASSA-PSS), refusing moduli
    /// under `minimumModulusBits`.
    public init<Bytes: Collection>(spkiDER bytes: Bytes, minimumModulusBits: Int = RSAPublicKey.defaultMinimumModulusBits)
        throws(SigilKeysError) where Bytes.Element == UInt8
    {
        try self.init(spki: SubjectPublicKeyInfo(derEncoded: bytes), minimumModulusBits: minimumModulusBits)
    }

    /// SubjectPublicKeyInfo DER: rsaEncryption with NULL, or id-RSASSA-PSS with its parameters.
    public var spkiDER: [UInt8] {
        let algorithm: AlgorithmIdentifier
        if let pssRestriction {
            algorithm = AlgorithmIdentifier(
                algorithm: KeyOIDs.rsassaPSS,
                parameters: RSASSAPSSParameters(pssRestriction).derRepresentation)
        } else if isPSSOnly {
            algorithm = AlgorithmIdentifier(algorithm: KeyOIDs.rsassaPSS)
        } else {
            algorithm = AlgorithmIdentifier(algorithm: KeyOIDs.rsaEncryption, parameters: [0x05, 0x00])
        }
        return SubjectPublicKeyInfo(algorithm: algorithm, subjectPublicKey: ASN1BitString(wholeBytes: key.pkcs1DER)).derRepresentation
    }
}

extension RSAPublicKey {
    /// From a DER PKCS#1 RSAPublicKey. The size and exponent rules of `RSAPublicKey` apply.
    public init<Bytes: Collection>(pkcs1DER bytes: Bytes, minimumModulusBits: Int = RSAPublicKey.defaultMinimumModulusBits)
        throws(SigilKeysError) where Bytes.Element == UInt8
    {
        let node: ASN1Node
        do {
            node = try DER.parse(bytes)
        } catch {
            throw SigilKeysError(wrapping: error, as: .malformed, context: "RSAPublicKey")
        }
        let structure = try RSAPublicKeyStructure(node: node)
        do {
            try self.init(modulus: structure.modulus, exponent: structure.publicExponent, minimumModulusBits: minimumModulusBits)
        } catch {
            throw SigilKeysError(.invalidKey, error.reason)
        }
    }

    /// From a DER SubjectPublicKeyInfo with rsaEncryption (or id-RSASSA-PSS; use
    /// `RSAPublicKeyInfo` to keep the PSS restriction).
    public init<Bytes: Collection>(spkiDER bytes: Bytes, minimumModulusBits: Int = RSAPublicKey.defaultMinimumModulusBits)
        throws(SigilKeysError) where Bytes.Element == UInt8
    {
        self = try RSAPublicKeyInfo(spkiDER: bytes, minimumModulusBits: minimumModulusBits).key
    }

    /// From JWK members `n` and `e` (RFC 7518 §6.3.1): base64url without padding, big-endian
    /// unsigned; `n` must not start with a zero byte (§6.3.1.1: "MUST NOT be prefixed").
    public init(jwkModulus n: String, exponent e: String, minimumModulusBits: Int = RSAPublicKey.defaultMinimumModulusBits)
        throws(SigilKeysError)
    {
        let modulus: [UInt8]
        let exponent: [UInt8]
        do {
            modulus = try Base64.decode(Array(n.utf8), alphabet: .url, padding: .forbidden)
            exponent = try Base64.decode(Array(e.utf8), alphabet: .url, padding: .forbidden)
        } catch {
            throw SigilKeysError(wrapping: error, as: .malformed, context: "JWK RSA key")
        }
        guard modulus.first != 0, exponent.first != 0 else {
            throw SigilKeysError(.malformed, "JWK RSA n and e must be minimal big-endian (no leading zero byte)")
        }
        do {
            try self.init(modulus: modulus, exponent: exponent, minimumModulusBits: minimumModulusBits)
        } catch {
            throw SigilKeysError(.invalidKey, error.reason)
        }
    }

    /// JWK members (base64url, unpadded).
    public var jwkModulus: String { Base64.encode(modulus, alphabet: .url) }
    /// The exponent as a JWK `e` member (base64url, unpadded).
    public var jwkExponent: String { Base64.encode(exponent, alphabet: .url) }

    /// PKCS#1 RSAPublicKey DER.
    public var pkcs1DER: [UInt8] {
        var writer = DERWriter()
        RSAPublicKeyStructure(modulus: modulus, publicExponent: exponent).encode(into: &writer)
        return writer.bytes
    }

    /// SubjectPublicKeyInfo DER with rsaEncryption.
    public var spkiDER: [UInt8] { RSAPublicKeyInfo(key: self).spkiDER }

    /// "PUBLIC KEY" PEM (SubjectPublicKeyInfo).
    public var pemRepresentation: String { PEMDocument(label: "PUBLIC KEY", derBytes: spkiDER).pemString }

    /// Reads PEM ("PUBLIC KEY" or "RSA PUBLIC KEY", exactly one block) or DER (SubjectPublicKeyInfo,
    /// then PKCS#1).
    public init<Bytes: Collection>(loading bytes: Bytes, minimumModulusBits: Int = RSAPublicKey.defaultMinimumModulusBits)
        throws(SigilKeysError) where Bytes.Element == UInt8
    {
        let data = Array(bytes)
        if PEMDocument.containsBeginLine(data), let text = String(validating: data, as: UTF8.self) {
            let blocks: [PEMDocument]
            do {
                blocks = try PEMDocument.parseAll(text)
            } catch {
                throw SigilKeysError(wrapping: error, as: .malformed, context: "PEM")
            }
            guard blocks.count == 1, let block = blocks.first else {
                throw SigilKeysError(.malformed, "expected one key in the PEM text, found \(blocks.count)")
            }
            switch block.label {
            case "PUBLIC KEY": self = try RSAPublicKey(spkiDER: block.derBytes, minimumModulusBits: minimumModulusBits)
            case "RSA PUBLIC KEY": self = try RSAPublicKey(pkcs1DER: block.derBytes, minimumModulusBits: minimumModulusBits)
            default: throw SigilKeysError(.unexpectedLabel, "PEM label \"\(block.label)\" is not an RSA public key")
            }
            return
        }
        if let key = try? RSAPublicKey(spkiDER: data, minimumModulusBits: minimumModulusBits) {
            self = key
            return
        }
        do {
            self = try RSAPublicKey(pkcs1DER: data, minimumModulusBits: minimumModulusBits)
        } catch {
            throw SigilKeysError(error.code, "not an RSA SubjectPublicKeyInfo or PKCS#1 RSAPublicKey (\(error.reason))")
        }
    }
}
