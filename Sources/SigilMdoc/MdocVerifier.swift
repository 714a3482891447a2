import SigilASN1
import SigilBase
import SigilCBOR
import SigilCOSE
import SigilCore
import SigilKeys
import SigilX509

/// Verifies an ISO/IEC 18013-5 DeviceResponse — what an mdoc (a mobile driver's licence, an ID in
/// Wallet) hands a reader — as §9.1.2 and §9.1.3 describe, for one session:
///
/// 1. the response: version 1, status 0 (any other status is refused: the mdoc returned no data);
/// 2. for each document, IssuerAuth: the COSE_Sign1 verifies with the document signer's key
///    (x5chain, label 33);
/// 3. the MSO: version 1, digest algorithm SHA-256/384/512, `docType` equal to the document's,
///    `validityInfo` signed ≤ validFrom ≤ time ≤ validUntil;
/// 4. every disclosed IssuerSignedItemBytes hashed to its `valueDigests` entry (by namespace and
///    digestID; a digestID or element twice in a namespace, or an unknown one, refused);
/// 5. DeviceAuth over DeviceAuthenticationBytes with the caller's SessionTranscript: the
///    deviceSignature with the MSO's device key, or the deviceMac under HKDF-SHA-256(ECDH(reader's
///    ephemeral key, device key), salt SHA-256(SessionTranscriptBytes), "EMacKey");
/// 6. device-signed elements only as the MSO's `keyAuthorizations` allow;
/// 7. the document signer chains to one of ``trustedIACARoots`` under RFC 5280 and Annex B
///    (``MdocIssuerPolicy``), both at the MSO's `signed` time and at the verification time — last,
///    so a response is judged whole before trust is looked up; no element is returned before it
///    passed.
///
/// Safe by default: a deviceMac the caller cannot check (no reader private key) is refused unless
/// the caller names ``Relaxation/acceptUnverifiedDeviceMAC``, and then the document says
/// ``DeviceAuthenticationMethod/macNotVerified``. Failures are ``MdocError``s naming their clause,
/// never an element's value.
public struct MdocVerifier: Sendable {
    /// The IACA root certificates trusted for the job (the issuers' roots, from the issuing
    /// authorities or a VICAL).
    public let trustedIACARoots: [Certificate]
    /// The Annex B profile the document signer's chain must meet.
    public let issuerPolicy: MdocIssuerPolicy
    /// The rules deliberately not enforced.
    public let relaxations: Set<Relaxation>

    /// A rule deliberately not enforced, by name.
    public enum Relaxation: String, Sendable, Hashable, CaseIterable {
        /// Accept a document authenticated by a deviceMac without checking it when no reader
        /// private key is held (ProximityReader before iOS 26.4 hands over none): the document is
        /// then reported as ``DeviceAuthenticationMethod/macNotVerified``.
        case acceptUnverifiedDeviceMAC
    }

    /// The reader's ephemeral key of the session, as far as the caller holds it.
    public enum ReaderKey: Sendable {
        /// The reader's ephemeral private key (EReaderKey.Priv): a deviceMac is checked.
        case privateKey(ECDSAPrivateKey)
        /// Only the public key: a deviceMac cannot be checked.
        case publicKeyOnly(ECDSAPublicKey)
        /// No reader key (the web flow of 18013-7 Annex C, where documents carry deviceSignatures).
        case notHeld
    }

    /// A verifier trusting `trustedIACARoots` under `issuerPolicy`, with no relaxation unless named.
    public init(trustedIACARoots: [Certificate], issuerPolicy: MdocIssuerPolicy = MdocIssuerPolicy(), relaxations: Set<Relaxation> = []) {
        self.trustedIACARoots = trustedIACARoots
        self.issuerPolicy = issuerPolicy
        self.relaxations = relaxations
        chainVerifier = CertificateVerifier(
            trustedRoots: trustedIACARoots, policies: [AnyCertificatePolicy(RFC5280Policy()), AnyCertificatePolicy(issuerPolicy)])
    }

    /// The path builder for the document signers, made once (RFC 5280 + Annex B over the roots).
    let chainVerifier: CertificateVerifier

    static let responseClause = "ISO/IEC 18013-5 §8.3.2.1.2.2"
    /// The most documents read from one response (16): each costs signature checks and a chain.
    public static let maximumDocuments = 16

    /// Verifies the DeviceResponse `deviceResponse` of the session `sessionTranscript` at `time`
    /// (seconds since the epoch), checking deviceMacs with `readerKey`.
    ///
    /// `trace`, when given, receives every step with its clause and what it found — never an
    /// element's value.
    public func verify(
        deviceResponse: [UInt8], sessionTranscript: SessionTranscript, readerKey: ReaderKey, at time: Int64,
        trace: VerificationTrace? = nil
    ) throws(MdocError) -> VerifiedDeviceResponse {
        let clause = Self.responseClause
        func fail(_ error: MdocError, _ check: String) -> MdocError {
            trace?.fail(clause, check, "\(error.code): \(error.reason)")
            return error
        }
        let response: MdocMap
        do {
            response = try MdocMap(MdocCBOR.decode(deviceResponse, "the DeviceResponse"), "the DeviceResponse", clause)
        } catch { throw fail(error, "decode the DeviceResponse") }
        let version: String
        let status: UInt64
        do {
            version = try response.text("version")
            status = try response.unsigned("status")
        } catch { throw fail(error, "read version and status") }
        guard version == "1" || version.hasPrefix("1.") else {
            throw fail(
                MdocError(.unsupportedVersion, "the DeviceResponse's version is \"\(version)\"; version 1 is read (\(clause))"), "version")
        }
        guard status == 0 else {
            let meaning = [10: "general error", 11: "CBOR decoding error", 12: "CBOR validation error"][status] ?? "unregistered"
            throw fail(
                MdocError(
                    .responseStatus,
                    "the DeviceResponse's status is \(status) (\(meaning)): the mdoc returned no data (ISO/IEC 18013-5 §8.3.2.1.2.3)"),
                "status")
        }
        var documentErrors: [String: Int64] = [:]
        if let errors = response["documentErrors"] {
            guard case .array(let items) = errors else {
                throw fail(MdocError(.malformedStructure, "documentErrors is not an array (\(clause))"), "documentErrors")
            }
            for item in items {
                guard case .map(let entries) = item else {
                    throw fail(MdocError(.malformedStructure, "a DocumentError is not a map (\(clause))"), "documentErrors")
                }
                for entry in entries {
                    guard case .text(let docType) = entry.key, let code = entry.value.int64Value else {
                        throw fail(
                            MdocError(.malformedStructure, "a DocumentError is not docType → error code (\(clause))"), "documentErrors")
                    }
                    documentErrors[docType] = code
                }
            }
        }
        var documentValues: [CBORValue] = []
        if let documents = response["documents"] {
            guard case .array(let items) = documents else {
                throw fail(MdocError(.malformedStructure, "documents is not an array (\(clause))"), "documents")
            }
            documentValues = items
        }
        guard documentValues.count <= Self.maximumDocuments else {
            throw fail(
                MdocError(
                    .malformedStructure,
                    "the DeviceResponse holds \(documentValues.count) documents; at most \(Self.maximumDocuments) are read"),
                "documents")
        }
        guard !documentValues.isEmpty else {
            let missing = documentErrors.keys.sorted().joined(separator: ", ")
            throw fail(
                MdocError(
                    .noDocument, "the DeviceResponse holds no document" + (missing.isEmpty ? "" : " (document errors for \(missing))")),
                "documents")
        }
        let (documentCount, errorCount) = (documentValues.count, documentErrors.count)
        trace?.pass(
            clause, "the DeviceResponse", "version \(version), status 0, \(documentCount) document(s), \(errorCount) document error(s)")
        var documents: [VerifiedDocument] = []
        for (index, value) in documentValues.enumerated() {
            documents.append(
                try verifyDocument(value, index: index, sessionTranscript: sessionTranscript, readerKey: readerKey, at: time, trace: trace))
        }
        return VerifiedDeviceResponse(version: version, documents: documents, documentErrors: documentErrors, status: status)
    }

    /// One document (§9.1.2, §9.1.3).
    func verifyDocument(
        _ value: CBORValue, index: Int, sessionTranscript: SessionTranscript, readerKey: ReaderKey, at time: Int64,
        trace: VerificationTrace?
    ) throws(MdocError) -> VerifiedDocument {
        let label = "document \(index)"
        var clause = "ISO/IEC 18013-5 §8.3.2.1.2.2 (\(label))"
        func fail(_ error: MdocError, _ check: String) -> MdocError {
            trace?.fail(clause, check, "\(error.code): \(error.reason)")
            return error
        }
        let document: MdocMap
        let docType: String
        let issuerSigned: MdocMap
        do {
            document = try MdocMap(value, "\(label)", clause)
            docType = try document.text("docType")
            issuerSigned = try document.map("issuerSigned", "\(label)'s issuerSigned")
        } catch { throw fail(error, "read the document") }

        // 2. IssuerAuth's signature.
        clause = "ISO/IEC 18013-5 §9.1.2.4 (\(label), \(docType))"
        let issuerAuthValue: CBORValue
        do { issuerAuthValue = try issuerSigned.required("issuerAuth") } catch { throw fail(error, "IssuerAuth") }
        let issuerAuth: COSESign1
        let givenChain: [[UInt8]]?
        do {
            issuerAuth = try COSESign1(issuerAuthValue)
            givenChain = try issuerAuth.headers.certificateChain()
        } catch {
            throw fail(MdocError(wrapping: error, as: .invalidIssuerSignature, context: "IssuerAuth (\(clause))"), "IssuerAuth")
        }
        guard let chainDER = givenChain else {
            throw fail(MdocError(.invalidIssuerSignature, "IssuerAuth carries no x5chain (label 33) (\(clause))"), "IssuerAuth")
        }
        var certificates: [Certificate] = []
        for der in chainDER {
            do { certificates.append(try Certificate(derEncoded: der)) } catch {
                throw fail(MdocError(wrapping: error, as: .untrustedIssuer, context: "a certificate of IssuerAuth's x5chain"), "x5chain")
            }
        }
        let signer = certificates[0]
        guard case .ec(let signerKey) = signer.publicKey else {
            throw fail(
                MdocError(.invalidIssuerSignature, "the document signer's key is \(signer.publicKey), not EC (\(clause))"), "IssuerAuth")
        }
        do { try issuerAuth.verify(with: signerKey) } catch {
            throw fail(MdocError(wrapping: error, as: .invalidIssuerSignature, context: "IssuerAuth's signature (\(clause))"), "IssuerAuth")
        }
        trace?.pass(
            clause, "IssuerAuth's signature",
            "\((try? issuerAuth.headers.algorithm()).flatMap { $0 }?.description ?? "?") by \(signer.subject)")

        // 3. The MSO (the signed payload).
        let mso: MobileSecurityObject
        do throws(MdocError) {
            guard let payload = issuerAuth.payload else {
                throw MdocError(.malformedStructure, "IssuerAuth's payload is detached; it must carry the MSO (\(clause))")
            }
            let msoBytes = try MdocCBOR.embedded(
                MdocCBOR.decode(payload, "IssuerAuth's payload"), "IssuerAuth's payload (MobileSecurityObjectBytes)", clause)
            mso = try MobileSecurityObject(bytes: msoBytes)
        } catch { throw fail(error, "the MSO") }

        guard mso.docType == docType else {
            throw fail(
                MdocError(.docTypeMismatch, "the MSO's docType \"\(mso.docType)\" is not the document's \"\(docType)\" (\(clause))"),
                "docType")
        }
        let validity = mso.validityInfo
        guard validity.signed <= validity.validFrom, validity.validFrom < validity.validUntil else {
            throw fail(
                MdocError(
                    .documentNotValidAtTime,
                    "the MSO's validityInfo is out of order: signed \(validity.signed), validFrom \(validity.validFrom), validUntil \(validity.validUntil) (\(clause))"
                ),
                "validityInfo")
        }
        guard
            validity.validFrom.secondsSinceEpoch < time
                || (validity.validFrom.secondsSinceEpoch == time && validity.validFrom.nanoseconds == 0),
            time <= validity.validUntil.secondsSinceEpoch
        else {
            throw fail(
                MdocError(
                    .documentNotValidAtTime,
                    "the MSO is valid from \(validity.validFrom) until \(validity.validUntil), and the verification time is \(time) (\(clause))"
                ),
                "validityInfo")
        }
        trace?.pass(
            clause, "the MSO",
            "version \(mso.version), \(mso.digestAlgorithm.rawValue), docType \(docType), valid \(validity.validFrom) … \(validity.validUntil)"
        )

        // 4. The disclosed items' digests.
        clause = "ISO/IEC 18013-5 §9.1.2.5 (\(label))"
        var issuerElements: [MdocElement] = []
        if let nameSpaces = issuerSigned["nameSpaces"] {
            do throws(MdocError) {
                for entry in try MdocMap(nameSpaces, "IssuerNameSpaces", clause).entries {
                    guard case .text(let nameSpace) = entry.key, case .array(let items) = entry.value, !items.isEmpty else {
                        throw MdocError(.malformedStructure, "IssuerNameSpaces is not namespace → [+ IssuerSignedItemBytes] (\(clause))")
                    }
                    guard let digests = mso.valueDigests[nameSpace] else {
                        throw MdocError(.unknownDigestID, "the MSO has no digests for the namespace \(nameSpace) (\(clause))")
                    }
                    var seenIDs: Set<UInt64> = []
                    var seenNames: Set<String> = []
                    for item in items {
                        let itemBytes = try MdocCBOR.embedded(item, "an IssuerSignedItemBytes of \(nameSpace)", clause)
                        let fields = try MdocMap(
                            MdocCBOR.decode(itemBytes, "an IssuerSignedItem of \(nameSpace)"), "an IssuerSignedItem of \(nameSpace)", clause
                        )
                        let digestID = try fields.unsigned("digestID")
                        let identifier = try fields.text("elementIdentifier")
                        guard case .bytes = try fields.required("random") else {
                            throw MdocError(
                                .malformedStructure, "the random of \(nameSpace)/\(identifier) is not a byte string (\(clause))")
                        }
                        let elementValue = try fields.required("elementValue")
                        guard seenIDs.insert(digestID).inserted else {
                            throw MdocError(.duplicateItem, "digestID \(digestID) is disclosed twice in \(nameSpace) (\(clause))")
                        }
                        guard seenNames.insert(identifier).inserted else {
                            throw MdocError(.duplicateItem, "\(nameSpace)/\(identifier) is disclosed twice (\(clause))")
                        }
                        guard let expected = digests[digestID] else {
                            throw MdocError(
                                .unknownDigestID,
                                "\(nameSpace)/\(identifier) has digestID \(digestID), which the MSO does not list (\(clause))")
                        }
                        // The digest covers IssuerSignedItemBytes: tag 24 and the byte string as sent (the
                        // strict decoder refused any head that is not the shortest, so this is the wire).
                        guard mso.digestAlgorithm.hash(CBOR.encode(.tagged(24, .bytes(itemBytes)))) == expected else {
                            throw MdocError(
                                .digestMismatch,
                                "the digest of \(nameSpace)/\(identifier) (digestID \(digestID)) is not the MSO's (\(clause))")
                        }
                        issuerElements.append(
                            MdocElement(
                                nameSpace: nameSpace, identifier: identifier, value: MdocElementValue(elementValue), digestID: digestID))
                    }
                }
            } catch { throw fail(error, "the disclosed items' digests") }
        }
        let itemCount = issuerElements.count
        trace?.pass(clause, "every disclosed item's digest", "\(itemCount) item(s) matched their \(mso.digestAlgorithm.rawValue) digests")

        // 5. DeviceAuth.
        clause = "ISO/IEC 18013-5 §9.1.3 (\(label))"
        let deviceSigned: MdocMap
        let deviceNameSpacesBytes: [UInt8]
        let deviceAuth: MdocMap
        do throws(MdocError) {
            guard let value = document["deviceSigned"] else {
                throw MdocError(
                    .malformedStructure,
                    "the document has no deviceSigned: nothing binds it to this session, so it could be a copy (\(clause))")
            }
            deviceSigned = try MdocMap(value, "deviceSigned", clause)
            deviceNameSpacesBytes = try MdocCBOR.embedded(
                deviceSigned["nameSpaces"], "deviceSigned's nameSpaces (DeviceNameSpacesBytes)", clause)
            deviceAuth = try deviceSigned.map("deviceAuth", "deviceAuth")
        } catch { throw fail(error, "deviceSigned") }
        let deviceAuthentication = Self.deviceAuthenticationBytes(
            transcript: sessionTranscript, docType: docType, deviceNameSpacesBytes: deviceNameSpacesBytes)
        let method: DeviceAuthenticationMethod
        switch (deviceAuth["deviceSignature"], deviceAuth["deviceMac"]) {
        case (let signature?, nil):
            clause = "ISO/IEC 18013-5 §9.1.3.6 (\(label))"
            do {
                let message = try COSESign1(signature)
                try message.verify(with: mso.deviceKey, detachedPayload: deviceAuthentication)
                method = .signature(try message.headers.algorithm() ?? .es256)
            } catch {
                throw fail(
                    MdocError(
                        wrapping: error, as: .invalidDeviceSignature,
                        context: "the deviceSignature over DeviceAuthenticationBytes (\(clause))"),
                    "deviceSignature")
            }
        case (nil, let mac?):
            clause = "ISO/IEC 18013-5 §9.1.3.5 (\(label))"
            // A session without EReaderKeyBytes (18013-7 Annex C on the web) gives the device no
            // reader key to make a MAC with: a deviceMac there is never genuine, relaxation or not.
            guard sessionTranscript.hasReaderKey else {
                throw fail(
                    MdocError(
                        .invalidDeviceMAC,
                        "the document carries a deviceMac, and the session transcript holds no EReaderKeyBytes to make one with (\(clause))"
                    ),
                    "deviceMac")
            }
            switch readerKey {
            case .privateKey(let key):
                if let sessionKey = sessionTranscript.readerPublicKey, sessionKey != key.publicKey {
                    throw fail(
                        MdocError(
                            .invalidReaderKey,
                            "the reader key given is not the session's: its public point differs from the transcript's EReaderKeyBytes (\(clause))"
                        ),
                        "deviceMac")
                }
                let macKey: [UInt8]
                do { macKey = try Self.deviceMACKey(readerKey: key, deviceKey: mso.deviceKey, sessionTranscript: sessionTranscript) } catch
                {
                    throw fail(error, "deviceMac")
                }
                do { try COSEMac0(mac).verify(key: macKey, detachedPayload: deviceAuthentication) } catch {
                    throw fail(
                        MdocError(
                            wrapping: error, as: .invalidDeviceMAC, context: "the deviceMac over DeviceAuthenticationBytes (\(clause))"),
                        "deviceMac")
                }
                method = .mac
            case .publicKeyOnly, .notHeld:
                guard relaxations.contains(.acceptUnverifiedDeviceMAC) else {
                    throw fail(
                        MdocError(
                            .deviceMACNotVerifiable,
                            "the document is authenticated by a deviceMac, which only the reader's ephemeral private key can check, "
                                + "and none was given (\(clause))"),
                        "deviceMac")
                }
                do { _ = try COSEMac0(mac) } catch {
                    throw fail(MdocError(wrapping: error, as: .malformedStructure, context: "the deviceMac (\(clause))"), "deviceMac")
                }
                // Device-signed elements rest on that MAC alone: none is returned unchecked.
                guard deviceNameSpacesBytes == [0xA0] else {
                    throw fail(
                        MdocError(
                            .deviceMACNotVerifiable,
                            "the document carries device-signed elements under a deviceMac that cannot be checked: refused even under "
                                + "acceptUnverifiedDeviceMAC (\(clause))"),
                        "deviceMac")
                }
                method = .macNotVerified
            }
        default:
            throw fail(
                MdocError(.malformedStructure, "deviceAuth holds neither or both of deviceSignature and deviceMac (\(clause))"),
                "deviceAuth")
        }
        trace?.pass(clause, "the device's authentication of this session", method.description)

        // 6. Device-signed elements, as keyAuthorizations allows.
        clause = "ISO/IEC 18013-5 §9.1.2.4 keyAuthorizations (\(label))"
        var deviceElements: [MdocElement] = []
        do throws(MdocError) {
            let nameSpaces = try MdocMap(MdocCBOR.decode(deviceNameSpacesBytes, "DeviceNameSpaces"), "DeviceNameSpaces", clause)
            for entry in nameSpaces.entries {
                guard case .text(let nameSpace) = entry.key else {
                    throw MdocError(.malformedStructure, "a namespace of DeviceNameSpaces is not a text string (\(clause))")
                }
                for element in try MdocMap(entry.value, "DeviceSignedItems of \(nameSpace)", clause).entries {
                    guard case .text(let identifier) = element.key else {
                        throw MdocError(.malformedStructure, "an identifier of DeviceSignedItems is not a text string (\(clause))")
                    }
                    guard mso.keyAuthorizations.authorizes(nameSpace: nameSpace, identifier: identifier) else {
                        throw MdocError(
                            .unauthorizedDeviceElement,
                            "the device signed \(nameSpace)/\(identifier), which keyAuthorizations does not allow (\(clause))")
                    }
                    deviceElements.append(
                        MdocElement(nameSpace: nameSpace, identifier: identifier, value: MdocElementValue(element.value), digestID: nil))
                }
            }
        } catch { throw fail(error, "device-signed elements") }

        var elementErrors: [String: [String: Int64]] = [:]
        if let errors = document["errors"] {
            do throws(MdocError) {
                for entry in try MdocMap(errors, "the document's errors", "ISO/IEC 18013-5 §8.3.2.1.2.2").entries {
                    guard case .text(let nameSpace) = entry.key else {
                        throw MdocError(.malformedStructure, "a namespace of the document's errors is not a text string")
                    }
                    var codes: [String: Int64] = [:]
                    for item in try MdocMap(entry.value, "ErrorItems", "ISO/IEC 18013-5 §8.3.2.1.2.2").entries {
                        guard case .text(let identifier) = item.key, let code = item.value.int64Value else {
                            throw MdocError(
                                .malformedStructure, "an ErrorItem is not identifier → error code (ISO/IEC 18013-5 §8.3.2.1.2.2)")
                        }
                        codes[identifier] = code
                    }
                    elementErrors[nameSpace] = codes
                }
            } catch { throw fail(error, "the document's errors") }
        }
        // 7. The document signer's chain to the caller's IACA roots, at the verification time, then
        // the same chain's validity periods at the MSO's signed time (one path built, each signature
        // checked once): last, so that a response is judged whole before trust is looked up, and no
        // document content is returned before it passed.
        clause = "ISO/IEC 18013-5 §9.1.2.4, Annex B (\(label), \(docType))"
        let signed = mso.validityInfo.signed.secondsSinceEpoch
        var failures: [ValidationFailure]
        var chain: [Certificate] = []
        switch chainVerifier.verify(leaf: signer, intermediates: Array(certificates.dropFirst()), at: time, trace: trace) {
        case .valid(let valid):
            chain = valid
            failures = valid.enumerated().compactMap { position, certificate -> ValidationFailure? in
                let path = PathCertificate(certificate, position: position)
                if signed < certificate.validity.notBefore {
                    return .notYetValid(certificate: path, notBefore: certificate.validity.notBefore, time: signed)
                }
                if signed > certificate.validity.notAfter {
                    return .expired(certificate: path, notAfter: certificate.validity.notAfter, time: signed)
                }
                return nil
            }
        case .invalid(let invalid): failures = invalid
        }
        guard failures.isEmpty else {
            let moment = chain.isEmpty ? "the verification time (\(time))" : "the MSO's signed time (\(signed))"
            throw fail(
                MdocError(
                    failures.failsOnlyOnValidityPeriod ? .certificateNotValidAtTime : .untrustedIssuer,
                    "the document signer at \(moment): " + failures.map { $0.description }.joined(separator: "; ") + " (\(clause))",
                    failures: failures),
                "the document signer's chain")
        }
        let subjects = chain.map { $0.subject.rfc4514String }.joined(separator: " → ")
        trace?.pass(
            clause, "the document signer chains to an IACA root at \(time), every certificate valid at the MSO's signed time (\(signed))",
            subjects)
        return VerifiedDocument(
            docType: docType, issuerSignedElements: issuerElements, deviceSignedElements: deviceElements, elementErrors: elementErrors,
            mobileSecurityObject: mso, issuerChain: chain, deviceAuthentication: method)
    }

    /// DeviceAuthenticationBytes (§9.1.3.4): tag 24 around
    /// `["DeviceAuthentication", SessionTranscript, DocType, DeviceNameSpacesBytes]`, the transcript
    /// and the namespaces as their exact bytes.
    static func deviceAuthenticationBytes(transcript: SessionTranscript, docType: String, deviceNameSpacesBytes: [UInt8]) -> [UInt8] {
        var content: [UInt8] = [0x84]
        content += CBOR.encode(.text("DeviceAuthentication"))
        content += transcript.bytes
        content += CBOR.encode(.text(docType))
        content += CBOR.encode(.tagged(24, .bytes(deviceNameSpacesBytes)))
        return CBOR.encode(.tagged(24, .bytes(content)))
    }

    /// EMacKey (§9.1.3.5): HKDF-SHA-256 of the ECDH secret of the reader's ephemeral key and the
    /// device key, salt SHA-256(SessionTranscriptBytes), info "EMacKey", 32 bytes.
    static func deviceMACKey(readerKey: ECDSAPrivateKey, deviceKey: ECDSAPublicKey, sessionTranscript: SessionTranscript) throws(MdocError)
        -> [UInt8]
    {
        guard readerKey.curve == .p256, deviceKey.curve == .p256 else {
            throw MdocError(
                .invalidReaderKey,
                "a deviceMac is checked with P-256 keys here; the reader key is on \(readerKey.curve.rawValue) and the device key on \(deviceKey.curve.rawValue)"
            )
        }
        var secret: [UInt8]
        do { secret = try readerKey.sharedSecret(with: deviceKey) } catch {
            throw MdocError(wrapping: error, as: .invalidReaderKey, context: "ECDH of the reader's ephemeral key and the device key")
        }
        defer { _ = SecretMemory.wipe(&secret) }
        do {
            return try HKDF<SHA256>.deriveKey(
                inputKeyMaterial: secret, salt: SHA256.hash(sessionTranscript.taggedBytes), info: Array("EMacKey".utf8), outputByteCount: 32
            )
        } catch {
            throw MdocError(wrapping: error, as: .invalidReaderKey, context: "HKDF of the deviceMac key")
        }
    }
}
