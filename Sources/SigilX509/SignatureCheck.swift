import SigilASN1
import SigilCore
import SigilKeys

/// Verifying a signature made by a certificate's key over some bytes (a TBSCertificate, an OCSP
/// ResponseData, CMS signed attributes). Variable time: every input is public.
extension CertificatePublicKey {
    /// Why a signature check did not pass (for the verifier's report).
    public enum SignatureFailure: Error, Hashable, Sendable, CustomStringConvertible {
        /// The key cannot make this kind of signature (an EC key and an RSA algorithm, …).
        case keyAlgorithmMismatch(String)
        /// Sigil does not verify this algorithm.
        case unsupportedAlgorithm(String)
        /// The RSA key is smaller than the minimum allowed.
        case keyTooSmall(bits: Int, minimum: Int)
        /// The signature does not verify.
        case invalidSignature

        /// The failure, for people.
        public var description: String {
            switch self {
            case .keyAlgorithmMismatch(let s): "the signature algorithm does not match the key: \(s)"
            case .unsupportedAlgorithm(let s): "unsupported signature algorithm \(s)"
            case .keyTooSmall(let bits, let minimum): "RSA key of \(bits) bits is below the policy minimum of \(minimum)"
            case .invalidSignature: "the signature does not verify"
            }
        }
    }

    /// Checks `signature` over `message` under `algorithm`. ECDSA signatures are strict DER
    /// ECDSA-Sig-Value; RSA keys must have at least `minimumRSABits`; an id-RSASSA-PSS key
    /// verifies only PSS, with the parameters its SPKI restricts it to (RFC 4055 §1.2: same hashes,
    /// salt at least as long). Variable time.
    public func verifySignatureVartime(
        _ signature: [UInt8], over message: [UInt8], algorithm: SignatureAlgorithm,
        minimumRSABits: Int = RSAPublicKey.defaultMinimumModulusBits
    ) -> Result<Void, SignatureFailure> {
        switch (self, algorithm) {
        case (.ec(let key), .ecdsa(let hash)):
            guard let parsed = try? ECDSASignature(derEncoded: signature, curve: key.curve) else { return .failure(.invalidSignature) }
            return key.isValidSignatureVartime(parsed, for: message, hash: hash) ? .success(()) : .failure(.invalidSignature)
        case (.rsa(let info), .rsaPKCS1v15(let hash)):
            guard !info.isPSSOnly else { return .failure(.keyAlgorithmMismatch("an id-RSASSA-PSS key cannot verify PKCS#1 v1.5")) }
            guard info.key.modulusBits >= minimumRSABits else {
                return .failure(.keyTooSmall(bits: info.key.modulusBits, minimum: minimumRSABits))
            }
            return info.key.isValidPKCS1v15SignatureVartime(signature, for: message, hash: hash)
                ? .success(()) : .failure(.invalidSignature)
        case (.rsa(let info), .rsaPSS(let parameters)):
            guard info.key.modulusBits >= minimumRSABits else {
                return .failure(.keyTooSmall(bits: info.key.modulusBits, minimum: minimumRSABits))
            }
            if let restriction = info.pssRestriction {
                guard restriction.hash == parameters.hash, restriction.maskGenerationHash == parameters.maskGenerationHash,
                    parameters.saltLength >= restriction.saltLength
                else {
                    return .failure(.keyAlgorithmMismatch("PSS parameters outside the key's restriction"))
                }
            }
            return info.key.isValidPSSSignatureVartime(signature, for: message, parameters: parameters)
                ? .success(()) : .failure(.invalidSignature)
        case (_, .unknown(let identifier)):
            return .failure(.unsupportedAlgorithm(identifier.algorithm.dotted))
        case (.unknown(let spki), _):
            return .failure(.unsupportedAlgorithm("key algorithm \(spki.algorithm.algorithm.dotted)"))
        default:
            return .failure(.keyAlgorithmMismatch("\(algorithm) with a \(self) key"))
        }
    }
}

extension Certificate {
    /// Whether `issuer`'s key signed this certificate (RFC 5280 §6.1.3 (a)(1)). Variable time.
    public func isSignedVartime(by issuer: Certificate, minimumRSABits: Int = RSAPublicKey.defaultMinimumModulusBits)
        -> Result<Void, CertificatePublicKey.SignatureFailure>
    {
        issuer.publicKey.verifySignatureVartime(signature, over: tbsBytes, algorithm: signatureAlgorithm, minimumRSABits: minimumRSABits)
    }
}
