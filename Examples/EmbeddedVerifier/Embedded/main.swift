// The verification core as Embedded Swift, natively: SigilService's one request/answer layer over
// every verifier, compiled without the Swift runtime, Foundation, GMP or any C module, and linked
// against the C library alone. Scripts/check-embedded builds it and runs the conformance file
// (Conformance/cases.json) and tampered real objects through it.
//
// Standard input, one JSON document per line:
//   line 1     {"now": SECONDS, "appleRoots": ["base64 of DER", …]}: the service's clock (Embedded
//              Swift has none) and Apple's roots that are not built in (the Apple Inc. Root for
//              receipts, the App Attest root), each checked against its pinned fingerprint;
//   each next  a request document, as the C ABI, Python and HTTP take it.
// Standard output: one answer document per request line, in order.
import SigilASN1
import SigilJOSE
import SigilService
import SigilX509

/// The C library's `getchar` (the only input function this program needs).
@_extern(c, "getchar")
func getchar() -> Int32

/// Every byte of standard input, split into lines (the line break dropped).
func readLines() -> [[UInt8]] {
    var lines: [[UInt8]] = []
    var line: [UInt8] = []
    while true {
        let byte = getchar()
        if byte < 0 { break }
        if byte == 10 {
            lines.append(line)
            line = []
        } else {
            line.append(UInt8(truncatingIfNeeded: byte))
        }
    }
    if !line.isEmpty { lines.append(line) }
    return lines
}

/// The first line's configuration; nil (with a message) when it is not what the header says.
func configuration(_ line: [UInt8]) -> (now: Int64, roots: [Certificate])? {
    guard let document = try? JSONValue(parsing: line), let now = document["now"]?.int64Value,
        let texts = document["appleRoots"]?.arrayValue
    else {
        print("{\"error\":\"the first line must be {\\\"now\\\": seconds, \\\"appleRoots\\\": [base64 of DER, …]}\"}")
        return nil
    }
    var roots: [Certificate] = []
    for text in texts {
        guard let base64 = text.stringValue, let der = try? Base64.decode(Array(base64.utf8)),
            let certificate = try? Certificate(derEncoded: der)
        else {
            print("{\"error\":\"an appleRoots element is not base64 of a DER certificate\"}")
            return nil
        }
        roots.append(certificate)
    }
    return (now, roots)
}

@main
struct EmbeddedSelfTest {
    static func main() {
        let lines = readLines()
        guard let first = lines.first, let configured = configuration(first) else { return }
        let now = configured.now
        let service = VerificationService(requestTrust: .acceptedAndReported, appleRoots: configured.roots, clock: { now })
        for request in lines.dropFirst() {
            print(service.verify(json: request).json)
        }
    }
}
