import SigilBase
import SigilCBOR
import SigilCOSE
import SigilCipher
import SigilCore
import SigilJOSE
import SigilX509

/// An ISO/IEC 18013-7 Annex C request for the Digital Credentials API (protocol `org-iso-mdoc`),
/// as Apple's "Requesting a mobile document on the web" describes it: the server builds a
/// DeviceRequest and an EncryptionInfo holding its HPKE public key and a fresh nonce, hands both
/// to the page (``data``), and keeps the request to open the response
/// (``open(response:privateKey:)``).
///
/// What a hostile party can do and what it gets: a response is encrypted to the server's key
/// with the transcript of *this* request — its EncryptionInfo (the nonce) and the origin — as
/// HPKE info, so a response made for another request, another origin or another key does not
/// open (`decryptionFailed`), and its documents' deviceSignatures cover the same transcript.
/// The server must keep each request for one response only (its nonce is single-use): opening
/// the same response twice succeeds twice.
public struct DigitalCredentialsRequest: Sendable {
    /// One document asked for: its type and, by namespace, the elements with their intent to
    /// retain (ItemsRequest, ISO/IEC 18013-5 §8.3.2.1.2.1).
    public struct DocumentRequest: Sendable, Hashable {
        /// The document type ("org.iso.18013.5.1.mDL").
        public let docType: String
        /// By namespace, the element identifiers and whether the server intends to retain each.
        public let elements: [String: [String: Bool]]

        /// A request for `elements` of `docType`.
        public init(docType: String, elements: [String: [String: Bool]]) {
            self.docType = docType
            self.elements = elements
        }
    }

    /// The reader's key and certificate chain that sign ReaderAuth (ISO/IEC 18013-5 §9.1.4; Apple
    /// Wallet requires it, with a certificate from Apple Business Connect).
    public struct ReaderAuthentication: Sendable {
        /// The reader's private key (P-256: ES256; P-384: ES384).
        public let privateKey: ECDSAPrivateKey
        /// The reader certificate first, then any intermediates (x5chain, RFC 9360).
        public let certificates: [Certificate]

        /// ReaderAuth made with `privateKey`, carrying `certificates`.
        public init(privateKey: ECDSAPrivateKey, certificates: [Certificate]) {
            self.privateKey = privateKey
            self.certificates = certificates
        }
    }

    /// The DeviceRequest's CBOR.
    public let deviceRequest: [UInt8]
    /// The EncryptionInfo's CBOR: `["dcapi", {"nonce": bstr, "recipientPublicKey": COSE_Key}]`.
    public let encryptionInfo: [UInt8]
    /// The origin the page runs at ("https://example.com"), part of the transcript.
    public let origin: String
    /// The session transcript the response is bound to (Annex C).
    public let sessionTranscript: SessionTranscript

    /// Builds a request for `documents` from the page at `origin`, to be encrypted to
    /// `recipientKey` (P-256; rotate it often), with `nonce` (at least 16 bytes, fresh for each
    /// request, never reused), ReaderAuth signed by `readerAuthentication` when given.
    public init(
        documents: [DocumentRequest], origin: String, recipientKey: ECDSAPublicKey, nonce: [UInt8],
        readerAuthentication: ReaderAuthentication?
    ) throws(MdocError) {
        guard !documents.isEmpty, documents.allSatisfy({ !$0.docType.isEmpty && !$0.elements.isEmpty }) else {
            throw MdocError(.invalidRequest, "a request asks for at least one document, each with at least one element")
        }
        guard recipientKey.curve == .p256 else {
            throw MdocError(.invalidRequest, "Annex C's HPKE suite is DHKEM(P-256, HKDF-SHA256): the recipient key must be on P-256")
        }
        guard nonce.count >= 16 else {
            throw MdocError(.invalidRequest, "the nonce is \(nonce.count) bytes; at least 16 unpredictable bytes are needed")
        }
        try Self.checkOrigin(origin)
        if let reader = readerAuthentication, reader.certificates.isEmpty {
            throw MdocError(.invalidRequest, "ReaderAuth needs the reader's certificate (x5chain, RFC 9360)")
        }
        encryptionInfo = CBOR.encode(
            .array([
                .text("dcapi"),
                .map(pairs: [(.text("nonce"), .bytes(nonce)), (.text("recipientPublicKey"), COSEKey.encode(recipientKey))]),
            ]))
        self.origin = origin
        let transcript = SessionTranscript.digitalCredentialsAPI(encryptionInfo: Base64URL.encode(encryptionInfo), origin: origin)
        sessionTranscript = transcript
        var docRequests: [CBORValue] = []
        for document in documents {
            let nameSpaces = document.elements.keys.sorted().map { nameSpace -> (CBORValue, CBORValue) in
                let items = (document.elements[nameSpace] ?? [:]).keys.sorted().map { identifier -> (CBORValue, CBORValue) in
                    (.text(identifier), .bool(document.elements[nameSpace]?[identifier] ?? false))
                }
                return (.text(nameSpace), .map(pairs: items))
            }
            let itemsRequest = CBOR.encode(
                .map(pairs: [(.text("docType"), .text(document.docType)), (.text("nameSpaces"), .map(pairs: nameSpaces))]))
            var request: [(CBORValue, CBORValue)] = [(.text("itemsRequest"), .tagged(24, .bytes(itemsRequest)))]
            if let reader = readerAuthentication {
                // ReaderAuthenticationBytes: tag 24 around ["ReaderAuthentication", SessionTranscript, ItemsRequestBytes].
                var content: [UInt8] = [0x83]
                content += CBOR.encode(.text("ReaderAuthentication"))
                content += transcript.bytes
                content += CBOR.encode(.tagged(24, .bytes(itemsRequest)))
                let payload = CBOR.encode(.tagged(24, .bytes(content)))
                let chain: CBORValue =
                    reader.certificates.count == 1
                    ? .bytes(reader.certificates[0].derBytes) : .array(reader.certificates.map { .bytes($0.derBytes) })
                let signature = COSESign1.sign(
                    payload: payload, detached: true, unprotected: [CBORMapEntry(key: .unsigned(33), value: chain)], key: reader.privateKey)
                request.append((.text("readerAuth"), signature))
            }
            docRequests.append(.map(pairs: request))
        }
        deviceRequest = CBOR.encode(.map(pairs: [(.text("version"), .text("1.0")), (.text("docRequests"), .array(docRequests))]))
    }

    /// A request rebuilt from what the server stored when it made it (``deviceRequest``,
    /// ``encryptionInfo``, ``origin``), to open the answer: the EncryptionInfo is checked to be
    /// `["dcapi", {nonce, recipientPublicKey}]` with a P-256 key.
    public init(deviceRequest: [UInt8], encryptionInfo: [UInt8], origin: String) throws(MdocError) {
        let clause = "ISO/IEC 18013-7 Annex C"
        let value: CBORValue
        do { value = try MdocCBOR.decode(encryptionInfo, "the EncryptionInfo") } catch {
            throw MdocError(.invalidRequest, "the EncryptionInfo is not CBOR: \(error.reason)")
        }
        guard case .array(let members) = value, members.count == 2, members[0] == .text("dcapi"), case .map = members[1],
            case .bytes(let nonce)? = members[1]["nonce"], nonce.count >= 16, let key = members[1]["recipientPublicKey"],
            let recipient = try? COSEKey.publicKey(key), recipient.curve == .p256
        else {
            throw MdocError(
                .invalidRequest, "an EncryptionInfo is [\"dcapi\", {nonce (16+ bytes), recipientPublicKey (P-256 COSE_Key)}] (\(clause))")
        }
        try Self.checkOrigin(origin)
        self.deviceRequest = deviceRequest
        self.encryptionInfo = encryptionInfo
        self.origin = origin
        sessionTranscript = SessionTranscript.digitalCredentialsAPI(encryptionInfo: Base64URL.encode(encryptionInfo), origin: origin)
    }

    /// The request's `data` for `navigator.credentials.get({digital: {requests: [{protocol:
    /// "org-iso-mdoc", data}]}})`: `{"deviceRequest": …, "encryptionInfo": …}`, each base64url
    /// without padding.
    public var data: String {
        "{\"deviceRequest\":\"\(Base64URL.encode(deviceRequest))\",\"encryptionInfo\":\"\(Base64URL.encode(encryptionInfo))\"}"
    }

    /// Opens the wallet's answer: `response` is the base64url text of `credential.data.response`
    /// (or the EncryptedResponse's CBOR bytes, given as ``open(encryptedResponse:privateKey:)``),
    /// decrypted with HPKE (RFC 9180 base mode, DHKEM(P-256, HKDF-SHA256), HKDF-SHA256,
    /// AES-128-GCM) under `privateKey`, the request's transcript as info and no additional data.
    /// Returns the DeviceResponse's bytes, to verify with ``MdocVerifier`` and ``sessionTranscript``.
    public func open(response: String, privateKey: ECDSAPrivateKey) throws(MdocError) -> [UInt8] {
        let bytes: [UInt8]
        do { bytes = try Base64URL.decode(response, lenient: true) } catch {
            throw MdocError(wrapping: error, as: .decryptionFailed, context: "the response is not base64url")
        }
        return try open(encryptedResponse: bytes, privateKey: privateKey)
    }

    /// Opens an EncryptedResponse given as its CBOR bytes: `["dcapi", {"enc": bstr, "cipherText": bstr}]`.
    public func open(encryptedResponse: [UInt8], privateKey: ECDSAPrivateKey) throws(MdocError) -> [UInt8] {
        let clause = "ISO/IEC 18013-7 Annex C"
        let value = try MdocCBOR.decode(encryptedResponse, "the EncryptedResponse")
        guard case .array(let members) = value, members.count == 2, members[0] == .text("dcapi") else {
            throw MdocError(.malformedStructure, "an EncryptedResponse is [\"dcapi\", {enc, cipherText}] (\(clause))")
        }
        let fields = try MdocMap(members[1], "the EncryptedResponse's data", clause)
        guard case .bytes(let enc) = try fields.required("enc"), case .bytes(let cipherText) = try fields.required("cipherText") else {
            throw MdocError(.malformedStructure, "the EncryptedResponse's enc and cipherText are byte strings (\(clause))")
        }
        do {
            return try HPKE.open(
                cipherText, encapsulatedKey: enc, privateKey: privateKey, info: sessionTranscript.bytes, additionalData: [], mode: .base)
        } catch {
            throw MdocError(
                wrapping: error, as: .decryptionFailed,
                context: "the response does not open with this key and this request's transcript (\(clause); RFC 9180 base mode)")
        }
    }

    /// An origin as browsers serialize it (RFC 6454 §6.2): "https://" and a host, optionally a port,
    /// no path, no trailing slash; "http://" only for localhost. Anything else could never match
    /// what the browser hands the wallet, so the answer would never open.
    static func checkOrigin(_ origin: String) throws(MdocError) {
        let secure = origin.hasPrefix("https://")
        let rest = origin.dropFirst(secure ? 8 : (origin.hasPrefix("http://") ? 7 : 0))
        let parts = rest.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let host = parts.first.map(String.init) ?? ""
        let port = parts.dropFirst().first
        let valid =
            (secure || (origin.hasPrefix("http://") && host == "localhost")) && !host.isEmpty
            && host.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x2E }
            && (port.map { !$0.isEmpty && $0.count <= 5 && $0.allSatisfy(\.isNumber) } ?? true)
        guard valid else {
            throw MdocError(
                .invalidRequest, "the origin is a web origin such as \"https://example.com\" (lower-case host, optional port, no path)")
        }
    }
}
