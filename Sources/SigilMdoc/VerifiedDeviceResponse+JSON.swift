import SigilASN1
import SigilJOSE

// The one JSON form of a verified DeviceResponse: the request document's `response` (SigilService,
// every door) and `sigil mdoc verify` print it.

extension VerifiedDeviceResponse {
    /// The response as JSON, the `response` of the request document's answer and what
    /// `sigil mdoc verify` prints: version, status, document errors, and per document its type,
    /// how the device authenticated the session (``DeviceAuthenticationMethod/answerName``), the
    /// MSO's digest algorithm and validity (RFC 3339 as signed), the document signer's chain
    /// (subjects), and its elements by namespace, identifier and kind — each value
    /// (``MdocElementValue/answerJSON``) only when `values` is set: values are personal data.
    public func answerJSON(values: Bool) -> JSONValue {
        func element(_ element: MdocElement) -> JSONValue {
            var members: [(String, JSONValue)] = [
                ("nameSpace", .string(element.nameSpace)), ("identifier", .string(element.identifier)),
                ("kind", .string(element.value.kindDescription)),
            ]
            if values { members.append(("value", element.value.answerJSON)) }
            return .object(members)
        }
        func codes(_ map: [String: Int64]) -> JSONValue {
            .object(map.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.int($0.value)) })
        }
        let documents = self.documents.map { document -> JSONValue in
            let validity = document.mobileSecurityObject.validityInfo
            var validityMembers: [(String, JSONValue)] = [
                ("signed", .string(validity.signed.text)), ("validFrom", .string(validity.validFrom.text)),
                ("validUntil", .string(validity.validUntil.text)),
            ]
            if let update = validity.expectedUpdate { validityMembers.append(("expectedUpdate", .string(update.text))) }
            return .object([
                ("docType", .string(document.docType)),
                ("deviceAuthentication", .string(document.deviceAuthentication.answerName)),
                ("deviceAuthenticated", .bool(document.deviceAuthentication.isVerified)),
                ("digestAlgorithm", .string(document.mobileSecurityObject.digestAlgorithm.rawValue)),
                ("validityInfo", .object(validityMembers)),
                ("issuerChain", .array(document.issuerChain.map { .string($0.subject.rfc4514String) })),
                ("issuerSigned", .array(document.issuerSignedElements.map(element))),
                ("deviceSigned", .array(document.deviceSignedElements.map(element))),
                (
                    "elementErrors",
                    .object(document.elementErrors.sorted { $0.key < $1.key }.map { ($0.key, codes($0.value)) })
                ),
            ])
        }
        return .object([
            ("version", .string(version)), ("status", .int(Int64(clamping: status))),
            ("documentErrors", codes(documentErrors)), ("documents", .array(documents)),
        ])
    }
}

extension MdocElementValue {
    /// The value as JSON (a valid JSON text whatever the value; Foundation's reader takes it): text, integers, booleans and null as themselves, byte strings
    /// in standard base64, full-dates and tdates as their text (a tdate exactly as signed), finite
    /// floats as numbers and others as text, arrays and maps (keys as text) recursively, other tags
    /// as `{"tag", "value"}`, integers beyond 64 bits as text (`disclosedDescription`: the value,
    /// or −1 − n for a negative one).
    public var answerJSON: JSONValue {
        switch self {
        case .text(let text): .string(text)
        case .bytes(let bytes): .string(Base64.encode(bytes))
        case .integer(let n): .int(n)
        case .bool(let b): .bool(b)
        case .float(let f): f.isFinite ? .number(String(f)) : .string(String(f))
        case .null: .null
        case .fullDate(let date): .string(date.description)
        case .dateTime(let time): .string(time.text)
        case .array(let items): .array(items.map { $0.answerJSON })
        case .map(let entries):
            // Text keys are unique (CBOR refuses a key twice); other keys could print alike, so a map
            // with any is an array of {"key", "value"}.
            if entries.allSatisfy({ $0.key.text != nil }) {
                .object(entries.map { ($0.key.text ?? "", $0.value.answerJSON) })
            } else {
                .array(entries.map { .object([("key", $0.key.answerJSON), ("value", $0.value.answerJSON)]) })
            }
        case .tagged(let tag, let inner): .object([("tag", .number(String(tag))), ("value", inner.answerJSON)])
        case .otherInteger: .string(disclosedDescription)
        }
    }
}

extension DeviceAuthenticationMethod {
    /// The answer's name: `deviceSignature`, `deviceMac` or `deviceMacNotVerified`.
    public var answerName: String {
        switch self {
        case .signature: "deviceSignature"
        case .mac: "deviceMac"
        case .macNotVerified: "deviceMacNotVerified"
        }
    }
}
