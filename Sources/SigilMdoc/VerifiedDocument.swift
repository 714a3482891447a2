import SigilCOSE
import SigilCore
import SigilX509

/// A DeviceResponse whose every document verified (``MdocVerifier``).
public struct VerifiedDeviceResponse: Sendable {
    /// The response's version ("1.0").
    public let version: String
    /// The documents, in the order of the response, each verified.
    public let documents: [VerifiedDocument]
    /// The documents the mdoc did not return, by docType, with the error code it gave (§8.3.2.1.2.3):
    /// reported, never dropped.
    public let documentErrors: [String: Int64]
    /// The response's status: always 0 (OK) here, since any other status is refused.
    public let status: UInt64
}

/// One data element of a verified document.
public struct MdocElement: Sendable, Hashable {
    /// Its namespace ("org.iso.18013.5.1").
    public let nameSpace: String
    /// Its identifier ("family_name").
    public let identifier: String
    /// Its value, typed. Printing it shows the kind only (``MdocElementValue``).
    public let value: MdocElementValue
    /// The digestID of its IssuerSignedItem (issuer-signed elements); nil for a device-signed one.
    public let digestID: UInt64?
}

/// How the device authenticated the document to this session (§9.1.3).
public enum DeviceAuthenticationMethod: Sendable, Hashable, CustomStringConvertible {
    /// A deviceSignature (COSE_Sign1 by the MSO's device key) that verified.
    case signature(COSEAlgorithm)
    /// A deviceMac (COSE_Mac0 under the ECDH + HKDF key) that verified with the reader's private key.
    case mac
    /// A deviceMac that was not checked, because the caller holds no reader private key and named
    /// ``MdocVerifier/Relaxation/acceptUnverifiedDeviceMAC``: the document is **not**
    /// device-authenticated, so it may be a copy replayed from another session.
    case macNotVerified

    /// Whether the device's authentication of this session was checked.
    public var isVerified: Bool { self != .macNotVerified }

    /// "deviceSignature ES256 (-7)", "deviceMac HMAC 256/256", "deviceMac NOT verified".
    public var description: String {
        switch self {
        case .signature(let algorithm): "deviceSignature \(algorithm)"
        case .mac: "deviceMac HMAC 256/256"
        case .macNotVerified: "deviceMac NOT verified (no reader private key)"
        }
    }
}

/// One document of a DeviceResponse after ``MdocVerifier`` checked the issuer's signature and
/// chain, the MSO, every disclosed element's digest and the device's authentication of this
/// session. Elements come only from items whose digest matched (issuer-signed) or that the device
/// signed under the issuer's `keyAuthorizations` (device-signed).
public struct VerifiedDocument: Sendable {
    /// The document type ("org.iso.18013.5.1.mDL").
    public let docType: String
    /// The issuer-signed elements disclosed, in the order of the response.
    public let issuerSignedElements: [MdocElement]
    /// The device-signed elements (authorized by the MSO's keyAuthorizations), in the order of the
    /// response; usually none.
    public let deviceSignedElements: [MdocElement]
    /// Elements the mdoc did not return, by namespace and identifier, with the error code it gave.
    public let elementErrors: [String: [String: Int64]]
    /// The MSO the issuer signed (validity, digest algorithm, device key).
    public let mobileSecurityObject: MobileSecurityObject
    /// The document signer's chain as validated, document signer first, IACA root last.
    public let issuerChain: [Certificate]
    /// How the device authenticated this session.
    public let deviceAuthentication: DeviceAuthenticationMethod

    /// The issuer-signed value of `identifier` in `nameSpace` (the mDL namespace by default).
    public func element(_ identifier: String, in nameSpace: String = "org.iso.18013.5.1") -> MdocElementValue? {
        issuerSignedElements.first { $0.nameSpace == nameSpace && $0.identifier == identifier }?.value
    }
}
