import SigilASN1
import SigilCBOR
import SigilX509

/// An App Attest attestation object, decoded and not yet verified (Apple, "Validating apps that
/// connect to your server"):
///
/// ```
/// { "fmt": "apple-appattest",
///   "attStmt": { "x5c": [credCert, intermediate], "receipt": bstr },
///   "authData": bstr }
/// ```
///
/// The CBOR is read strictly (definite lengths, shortest-form heads, unique keys, no tags, no
/// floats, bounded depth, count and size); the map must have exactly these members.
public struct AttestationObject: Sendable {
    /// The most bytes accepted (Apple's sample is 5,906; its receipt is about 4 KB).
    public static let maximumSize = 256 << 10

    /// The authenticator data.
    public let authenticatorData: AuthenticatorData
    /// x5c as sent: the credential certificate first, then the intermediate(s).
    public let certificates: [Certificate]
    /// The fraud-metric receipt (BER CMS SignedData).
    public let receipt: [UInt8]

    /// Decodes `bytes`: raw CBOR, or its base64 text as apps send it (white space ignored).
    public init(_ bytes: [UInt8]) throws(AppAttestError) {
        let value = try AttestationObject.map(bytes, what: "attestation object")
        func refuse(_ reason: String) -> AppAttestError { AppAttestError(.malformedObject, "attestation object: \(reason)") }
        guard let entries = value.mapValue, entries.count == 3 else {
            throw refuse("expected a map of exactly fmt, attStmt and authData, found a \(value.kindName)")
        }
        guard let fmt = value["fmt"]?.textValue else { throw refuse("fmt is missing or not a text string") }
        guard fmt == "apple-appattest" else {
            throw AppAttestError(.unsupportedFormat, "attestation object: fmt is \"\(fmt)\", not \"apple-appattest\"")
        }
        guard let statement = value["attStmt"], let members = statement.mapValue, members.count == 2 else {
            throw refuse("attStmt is missing or not a map of exactly x5c and receipt")
        }
        guard let x5c = statement["x5c"]?.arrayValue, !x5c.isEmpty, x5c.count <= 4 else {
            throw refuse("attStmt.x5c is missing, empty, longer than 4, or not an array")
        }
        guard let receipt = statement["receipt"]?.bytesValue else { throw refuse("attStmt.receipt is missing or not a byte string") }
        guard let authData = value["authData"]?.bytesValue else { throw refuse("authData is missing or not a byte string") }
        var certificates: [Certificate] = []
        for (index, item) in x5c.enumerated() {
            guard let der = item.bytesValue else { throw refuse("x5c[\(index)] is not a byte string") }
            do { certificates.append(try Certificate(derEncoded: der)) } catch {
                throw AppAttestError(.malformedCertificate, "x5c[\(index)]: \(error.reason)")
            }
        }
        self.certificates = certificates
        self.receipt = receipt
        authenticatorData = try AuthenticatorData(authData, form: .attestation)
    }

    /// The credential certificate (x5c[0]).
    public var credentialCertificate: Certificate { certificates[0] }

    static let cborOptions = CBORDecodingOptions(maximumDepth: 8, maximumItems: 64, maximumInputBytes: maximumSize)

    /// The top-level CBOR item of an attestation or assertion: raw CBOR (a map's head, major type
    /// 5), or base64 text of it.
    static func map(_ bytes: [UInt8], what: String) throws(AppAttestError) -> CBORValue {
        // Base64 of the largest object accepted, with room for line breaks: nothing larger is decoded.
        guard bytes.count <= 2 * maximumSize else {
            throw AppAttestError(.malformedObject, "\(what): \(bytes.count) bytes exceed the limit of \(2 * maximumSize)")
        }
        var binary = bytes
        if let first = bytes.first, first >> 5 != 5 {
            let compact = Base64.removingWhiteSpace(bytes)
            do { binary = try Base64.decode(compact, alphabet: .standard, padding: .optional) } catch {
                throw AppAttestError(.malformedObject, "\(what): neither CBOR (a map) nor base64 text: \(error.reason)")
            }
        }
        do { return try CBOR.decode(binary, options: cborOptions) } catch {
            throw AppAttestError(.malformedObject, "\(what): \(error)")
        }
    }
}

/// An App Attest assertion, decoded and not yet verified:
/// `{ "signature": bstr (DER ECDSA-Sig-Value), "authenticatorData": bstr }`.
public struct AssertionObject: Sendable {
    /// The DER ECDSA signature.
    public let signature: [UInt8]
    /// The authenticator data, read in the assertion form (37 bytes and at most one extensions map;
    /// flag AT ignored, as real devices set it with no credential data).
    public let authenticatorData: AuthenticatorData

    /// Decodes `bytes`: raw CBOR or its base64 text; the map must have exactly these two members.
    public init(_ bytes: [UInt8]) throws(AppAttestError) {
        let value = try AttestationObject.map(bytes, what: "assertion")
        guard let entries = value.mapValue, entries.count == 2, let signature = value["signature"]?.bytesValue,
            let authData = value["authenticatorData"]?.bytesValue
        else {
            throw AppAttestError(
                .malformedObject,
                "assertion: expected a map of exactly signature and authenticatorData (byte strings), found a \(value.kindName)")
        }
        self.signature = signature
        authenticatorData = try AuthenticatorData(authData, form: .assertion)
    }
}
