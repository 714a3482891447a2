import SigilAppStore
import SigilX509

// embedded-verifier ROOT FILE BUNDLE_ID [--type transaction|renewal-info|notification]
//                   [--environment Sandbox|Production] [--app-apple-id N]
//
// Verifies one App Store signed-data JWS offline: ES256 signature, x5c chain to ROOT (DER or
// PEM) with Apple's marker OIDs at the payload's signedDate, bundle id, environment and app
// Apple id. Prints one JSON line; exit 0 when valid, 1 when refused, 2 on a usage error.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
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
var arguments = CommandLine.arguments.dropFirst()
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

do {
    guard let root = try Certificate.load(rootBytes).first else { fail(2, "no certificate in \(positional[0])") }
    let environment = AppStoreEnvironment(rawValue: options["environment"] ?? "Sandbox")
    let appAppleId = options["app-apple-id"].flatMap { Int64($0) }
    let verifier = try SignedDataVerifier(
        trustedRoots: [root], bundleId: positional[2], appAppleId: appAppleId,
        environment: environment)
    let summary: String
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
    print("{\"valid\":true,\(summary)}")
} catch let error as AppStoreError {
    fail(1, "\(error.code): \(error.reason)")
} catch {
    fail(1, "\(error)")
}
