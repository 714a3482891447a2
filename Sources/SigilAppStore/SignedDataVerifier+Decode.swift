import SigilASN1
import SigilBase
import SigilCore
import SigilJOSE
import SigilKeys
import SigilX509

extension SignedDataVerifier {
    /// The kind to verify the payload as: `kind` when given, else the one kind whose distinctive
    /// members the payload carries (``SignedDataKind/classify(payload:)``: members no model names
    /// are reported, never refused); a payload that no kind, or several, is recognised in is
    /// refused (`ambiguousPayloadKind`, naming the kinds it could be), never guessed.
    func payloadKind(of json: JSONValue, given kind: SignedDataKind?, trace: VerificationTrace?) throws(AppStoreError)
        -> SignedDataKind
    {
        if let kind { return kind }
        switch SignedDataKind.classify(payload: json) {
        case .kind(let found, let unknown):
            trace?.note(
                "Apple: payload kind",
                "\(found.rawValue): the only kind "
                    + (found.distinctiveMembers.matches(Set(json.objectKeys))
                        ? "whose distinctive members the payload carries" : "whose model names every member of the payload")
                    + (unknown.isEmpty ? "" : "; members the model does not name, reported: \(unknown.joined(separator: ", "))"))
            return found
        case .ambiguous(let fitting, let unknown):
            let reason =
                fitting.isEmpty
                ? "the payload carries no kind's distinctive members and no kind's model names all of its members"
                    + (unknown.isEmpty ? "" : " (unknown: \(unknown.joined(separator: ", ")))")
                : "the payload could be \(fitting.map { $0.rawValue }.joined(separator: ", ")): name the kind (--type "
                    + fitting.map { $0.rawValue }.joined(separator: " or --type ") + ")"
            trace?.fail("Apple: payload kind", "classify the payload by its members", reason)
            throw AppStoreError(.ambiguousPayloadKind, reason)
        }
    }

    /// Step 1: the compact serialization and the payload's JSON, each parsed once (the strict
    /// parser: duplicate member names refused, RFC 7515 §5.2).
    func parse(_ compact: String, trace: VerificationTrace?) throws(AppStoreError) -> (JWS, JSONValue) {
        let jws: JWS
        // A header part verified before (the same text) is not decoded and parsed again.
        let cache = self.cache
        do { jws = try JWS(compact: compact, knownHeader: { cache.header(for: $0) }) } catch {
            trace?.fail("RFC 7515 §7.1", "parse the compact JWS", error.reason)
            throw AppStoreError(.invalidJWTFormat, error.reason)
        }
        trace?.pass(
            "RFC 7515 §7.1", "parse the compact JWS",
            "three parts; header alg \(jws.header["alg"]?.serialized ?? "absent"), x5c of \(jws.header["x5c"]?.arrayValue?.count ?? 0) certificate(s), "
                + "members \(jws.header.objectKeys.joined(separator: ", "))")
        let json: JSONValue
        do { json = try jws.payloadJSON() } catch {
            trace?.fail("RFC 7515 §5.2", "parse the payload JSON", error.reason)
            throw AppStoreError(.invalidJWTFormat, "the payload is not JSON: \(error.reason)")
        }
        return (jws, json)
    }

    /// Step 3, run before the header checks of step 2 so that test environments can decode: the
    /// payload as its model, read straight from the parsed JSON (``AppStoreSignedPayload/init(json:)``).
    func decode<Payload: AppStoreSignedPayload>(
        _ jws: JWS, payloadJSON: JSONValue, as type: Payload.Type, trace: VerificationTrace?
    ) throws(AppStoreError) -> Payload {
        let payload: Payload
        do throws(AppStoreError) {
            #if Benchmarks && !hasFeature(Embedded)
            if !DirectMemberDecoding.isEnabled {
                do { payload = try JSONValueDecoder().decode(Payload.self, from: payloadJSON) } catch {
                    throw AppStoreError(.invalidJWTFormat, Self.describe(error))
                }
            } else {
                payload = try Payload(json: payloadJSON)
            }
            #else
            payload = try Payload(json: payloadJSON)
            #endif
        } catch {
            trace?.fail("Apple: \(Payload.kind.rawValue) payload", "decode the payload", error.reason)
            throw AppStoreError(.invalidJWTFormat, "the payload is not a valid \(Payload.kind.rawValue): \(error.reason)")
        }
        trace?.pass("Apple: \(Payload.kind.rawValue) payload", "decode the payload", "\(jws.payload.count) bytes of JSON")
        return payload
    }

    #if !hasFeature(Embedded)
    /// A `DecodingError` as the verifier words it: "path: what", or "missing path.member" (the
    /// direct readers word their refusals the same way).
    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context),
            DecodingError.keyNotFound(_, let context), DecodingError.dataCorrupted(let context):
            let path = context.codingPath.map { $0.stringValue }.joined(separator: ".")
            if case DecodingError.keyNotFound(let key, _) = error { return "missing \(path.isEmpty ? "" : path + ".")\(key.stringValue)" }
            return (path.isEmpty ? "" : "\(path): ") + context.debugDescription
        case let error as JOSEError: return error.reason
        default: return "\(error)"
        }
    }
    #endif
}
