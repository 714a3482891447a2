import SigilASN1
import SigilCBOR
import SigilCOSE
import SigilCore

/// The MobileSecurityObject (ISO/IEC 18013-5 §9.1.2.4): what the issuer signs in IssuerAuth — the
/// digests of every data element, the device key, the document type and the validity.
public struct MobileSecurityObject: Sendable {
    /// The version ("1.0"; the major version 1 is read).
    public let version: String
    /// The digest algorithm of `valueDigests`.
    public let digestAlgorithm: DigestAlgorithm
    /// The digests by namespace and digestID.
    public let valueDigests: [String: [UInt64: [UInt8]]]
    /// The device key (`deviceKeyInfo.deviceKey`): the key DeviceAuth is made with.
    public let deviceKey: ECDSAPublicKey
    /// `deviceKeyInfo.keyAuthorizations`: the namespaces and elements the device key may sign
    /// itself (device-signed elements), when the issuer allows any.
    public let keyAuthorizations: KeyAuthorizations
    /// The document type the issuer signed.
    public let docType: String
    /// When the MSO was signed and when it is valid.
    public let validityInfo: ValidityInfo

    /// A digest algorithm of §9.1.2.5.
    public enum DigestAlgorithm: String, Sendable, Hashable {
        /// "SHA-256".
        case sha256 = "SHA-256"
        /// "SHA-384".
        case sha384 = "SHA-384"
        /// "SHA-512".
        case sha512 = "SHA-512"

        /// The digest of `bytes`.
        public func hash(_ bytes: [UInt8]) -> [UInt8] {
            switch self {
            case .sha256: SHA256.hash(bytes)
            case .sha384: SHA384.hash(bytes)
            case .sha512: SHA512.hash(bytes)
            }
        }
    }

    /// The MSO's `validityInfo` (§9.1.2.4), each time as signed.
    public struct ValidityInfo: Sendable, Hashable {
        /// When the MSO was signed.
        public let signed: RFC3339Timestamp
        /// The start of the validity.
        public let validFrom: RFC3339Timestamp
        /// The end of the validity.
        public let validUntil: RFC3339Timestamp
        /// When the issuer expects to re-sign, if it said.
        public let expectedUpdate: RFC3339Timestamp?
    }

    /// `keyAuthorizations` (§9.1.2.4): whole namespaces, and single elements by namespace.
    public struct KeyAuthorizations: Sendable, Hashable {
        /// Namespaces whose every element the device may sign.
        public let nameSpaces: Set<String>
        /// Elements the device may sign, by namespace.
        public let dataElements: [String: Set<String>]

        /// Whether the device key may sign `identifier` of `nameSpace`.
        public func authorizes(nameSpace: String, identifier: String) -> Bool {
            nameSpaces.contains(nameSpace) || dataElements[nameSpace]?.contains(identifier) == true
        }
    }

    static let clause = "ISO/IEC 18013-5 §9.1.2.4"

    /// Reads an MSO from its bytes (the content of MobileSecurityObjectBytes).
    init(bytes: [UInt8]) throws(MdocError) {
        let map = try MdocMap(MdocCBOR.decode(bytes, "the MobileSecurityObject"), "the MobileSecurityObject", Self.clause)
        version = try map.text("version")
        guard version == "1" || version.hasPrefix("1.") else {
            throw MdocError(.unsupportedVersion, "the MobileSecurityObject's version is \"\(version)\"; version 1 is read (\(Self.clause))")
        }
        let algorithmName = try map.text("digestAlgorithm")
        guard let algorithm = DigestAlgorithm(rawValue: algorithmName) else {
            throw MdocError(
                .unsupportedDigestAlgorithm,
                "the MSO's digest algorithm is \"\(algorithmName)\"; SHA-256, SHA-384 and SHA-512 are accepted (ISO/IEC 18013-5 §9.1.2.5)")
        }
        digestAlgorithm = algorithm
        docType = try map.text("docType")

        var digests: [String: [UInt64: [UInt8]]] = [:]
        for entry in try map.map("valueDigests", "the MSO's valueDigests").entries {
            guard case .text(let nameSpace) = entry.key else {
                throw MdocError(.malformedStructure, "a namespace of the MSO's valueDigests is not a text string (\(Self.clause))")
            }
            var ids: [UInt64: [UInt8]] = [:]
            for digest in try MdocMap(entry.value, "the MSO's digests of \(nameSpace)", Self.clause).entries {
                guard case .unsigned(let id) = digest.key, case .bytes(let value) = digest.value else {
                    throw MdocError(
                        .malformedStructure, "a digest of \(nameSpace) in the MSO is not digestID (uint) → digest (bstr) (\(Self.clause))")
                }
                ids[id] = value
            }
            digests[nameSpace] = ids
        }
        valueDigests = digests

        let keyInfo = try map.map("deviceKeyInfo", "the MSO's deviceKeyInfo")
        do { deviceKey = try COSEKey.publicKey(keyInfo.required("deviceKey")) } catch {
            throw MdocError(wrapping: error, as: .invalidDeviceKey, context: "the MSO's device key (\(Self.clause))")
        }
        var authorizedNameSpaces: Set<String> = []
        var authorizedElements: [String: Set<String>] = [:]
        if let authorizations = keyInfo["keyAuthorizations"] {
            let authorizationMap = try MdocMap(authorizations, "the MSO's keyAuthorizations", Self.clause)
            if let list = authorizationMap["nameSpaces"] {
                guard case .array(let items) = list else {
                    throw MdocError(.malformedStructure, "keyAuthorizations' nameSpaces is not an array (\(Self.clause))")
                }
                for item in items {
                    guard case .text(let name) = item else {
                        throw MdocError(.malformedStructure, "a namespace of keyAuthorizations is not a text string (\(Self.clause))")
                    }
                    authorizedNameSpaces.insert(name)
                }
            }
            if let elements = authorizationMap["dataElements"] {
                for entry in try MdocMap(elements, "keyAuthorizations' dataElements", Self.clause).entries {
                    guard case .text(let nameSpace) = entry.key, case .array(let items) = entry.value else {
                        throw MdocError(
                            .malformedStructure, "keyAuthorizations' dataElements is not namespace → [identifier] (\(Self.clause))")
                    }
                    var names: Set<String> = []
                    for item in items {
                        guard case .text(let name) = item else {
                            throw MdocError(.malformedStructure, "an element of keyAuthorizations is not a text string (\(Self.clause))")
                        }
                        names.insert(name)
                    }
                    authorizedElements[nameSpace] = names
                }
            }
        }
        keyAuthorizations = KeyAuthorizations(nameSpaces: authorizedNameSpaces, dataElements: authorizedElements)

        let validity = try map.map("validityInfo", "the MSO's validityInfo")
        func time(_ key: String, required: Bool = true) throws(MdocError) -> RFC3339Timestamp? {
            guard let value = validity[key] else {
                guard !required else { throw MdocError(.malformedStructure, "the MSO's validityInfo has no \"\(key)\" (\(Self.clause))") }
                return nil
            }
            // tdate is tag 0 around the text (RFC 8949 §3.4.1); an untagged text is read too, and so are
            // fractions and offsets, which 18013-5 §9.1.2.4 does not write: the issuer signed them, and the
            // instant they name is unambiguous (lenient on purpose, like every other signed content).
            var text: String?
            switch value {
            case .tagged(0, .text(let t)), .text(let t): text = t
            default: text = nil
            }
            guard let text, let timestamp = RFC3339Timestamp(text) else {
                throw MdocError(.malformedStructure, "the MSO's validityInfo \"\(key)\" is not a tdate (\(Self.clause))")
            }
            return timestamp
        }
        guard let signed = try time("signed"), let validFrom = try time("validFrom"), let validUntil = try time("validUntil") else {
            throw MdocError(.malformedStructure, "the MSO's validityInfo is incomplete (\(Self.clause))")  // not reached: each throws
        }
        validityInfo = ValidityInfo(
            signed: signed, validFrom: validFrom, validUntil: validUntil, expectedUpdate: try time("expectedUpdate", required: false))
    }
}
