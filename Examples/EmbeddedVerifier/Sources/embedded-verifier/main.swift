import SigilAppStore
import SigilX509

// embedded-verifier ROOT FILE BUNDLE_ID [--type transaction|renewal-info|notification]
//                   [--environment Sandbox|Production] [--app-apple-id N]
//
// Verifies one App Store signed-data JWS offline: ES256 signature, x5c chain to ROOT (DER or
// PEM) with Apple's marker OIDs at the payload's signedDate, bundle id, environment and app
// Apple id. Prints one JSON line; exit 0 when valid, 1 when refused, 2 on a usage error.
//
// The same file builds twice: as a regular Swift program (Package.swift, with the Swift runtime),
// and as Embedded Swift linked statically against musl (Scripts/check-embedded: no Swift runtime,
// no Foundation, a C library of a few hundred KiB). The C functions it calls come from Glibc's
// module in the first, and are declared below in the second (Embedded Swift imports no overlay).
#if hasFeature(Embedded)
typealias FILE = OpaquePointer
@_extern(c, "fopen") func fopen(_ path: UnsafePointer<CChar>, _ mode: UnsafePointer<CChar>) -> FILE?
@_extern(c, "fread") func fread(_ buffer: UnsafeMutableRawPointer?, _ size: Int, _ count: Int, _ file: FILE) -> Int
@_extern(c, "ferror") func ferror(_ file: FILE) -> Int32
@discardableResult @_extern(c, "fclose") func fclose(_ file: FILE) -> Int32
@_extern(c, "exit") func cExit(_ status: Int32)
func exit(_ status: Int32) -> Never {
    cExit(status)
    fatalError("exit returned")
}
@_extern(c, "time") func time(_ out: UnsafeMutablePointer<Int>?) -> Int
@_extern(c, "strerror") func strerror(_ code: Int32) -> UnsafePointer<CChar>
@_extern(c, "__errno_location") func errnoLocation() -> UnsafeMutablePointer<Int32>
var errno: Int32 { errnoLocation().pointee }
// The command line, as Embedded/start.c's main saved it (Embedded Swift has no CommandLine).
@_extern(c, "sigil_example_argument_count") func argumentCount() -> Int32
@_extern(c, "sigil_example_argument") func argument(_ index: Int32) -> UnsafePointer<CChar>
let commandLine = (0..<argumentCount()).map { String(cString: argument($0)) }
#else
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
let commandLine = CommandLine.arguments
#endif

func fail(_ status: Int32, _ message: String) -> Never {
    var escaped = ""
    for character in message.unicodeScalars {
        switch character {
        case "\\", "\"": escaped += "\\" + String(character)
        case "\n": escaped += "\\n"
        default: escaped.unicodeScalars.append(character)
        }
    }
    print("{\"valid\":false,\"error\":\"\(escaped)\"}")
    exit(status)
}

var positional: [String] = []
var options: [String: String] = [:]
var arguments = commandLine.dropFirst()
while let argument = arguments.popFirst() {
    if argument.hasPrefix("--") {
        guard let value = arguments.popFirst() else { fail(2, "\(argument) needs a value") }
        options[String(argument.dropFirst(2))] = value
    } else {
        positional.append(argument)
    }
}
guard positional.count == 3 else {
    fail(
        2,
        "usage: embedded-verifier ROOT FILE BUNDLE_ID [--type transaction|renewal-info|notification] "
            + "[--environment Sandbox|Production] [--app-apple-id N]")
}

/// The bytes of the file at `path` (the C library's stdio: no Foundation needed to read a file).
func contents(of path: String) -> [UInt8] {
    guard let file = fopen(path, "rb") else { fail(2, "cannot read input: \(path): \(String(cString: strerror(errno)))") }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
        if count == 0 { break }
        bytes += buffer[..<count]
    }
    if ferror(file) != 0 { fail(2, "cannot read input: \(path): read error") }
    return bytes
}

let rootBytes = contents(of: positional[0])
// The JWS as the file holds it, less surrounding white space (a trailing newline).
let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
let text = contents(of: positional[1])
let jws = String(decoding: text.drop(while: isSpace).reversed().drop(while: isSpace).reversed(), as: UTF8.self)

let roots: [Certificate]
do throws(X509Error) { roots = try Certificate.load(rootBytes) } catch { fail(2, "cannot read the root \(positional[0]): \(error.reason)") }
guard let root = roots.first else { fail(2, "no certificate in \(positional[0])") }
let environment = AppStoreEnvironment(rawValue: options["environment"] ?? "Sandbox")
let appAppleId = options["app-apple-id"].flatMap { Int64($0) }
let summary: String
do throws(AppStoreError) {
    let verifier = try SignedDataVerifier(
        trustedRoots: [root], bundleId: positional[2], appAppleId: appAppleId, environment: environment,
        clock: { Int64(time(nil)) })
    switch options["type"] ?? "transaction" {
    case "transaction":
        let verified = try verifier.verifyOffline(jws, as: JWSTransactionDecodedPayload.self)
        summary = "\"transactionId\":\"\(verified.payload.transactionId ?? "")\",\"productId\":\"\(verified.payload.productId ?? "")\""
    case "renewal-info":
        let verified = try verifier.verifyOffline(jws, as: JWSRenewalInfoDecodedPayload.self)
        summary = "\"originalTransactionId\":\"\(verified.payload.originalTransactionId ?? "")\""
    case "notification":
        let verified = try verifier.verifyOffline(jws, as: ResponseBodyV2DecodedPayload.self)
        summary = "\"notificationType\":\"\(verified.payload.notificationType?.rawValue ?? "")\""
    case let other:
        fail(2, "unknown --type \(other)")
    }
} catch {
    fail(1, "\(error.qualifiedCode): \(error.reason)")
}
print("{\"valid\":true,\(summary)}")
