// A program that only mints Apple's tokens: Scripts/check-link-boundaries reads its symbols (nm)
// and fails if it links any App Store verifier code, X.509, CMS or Apple PKI module — SigilTokens'
// promise that a signer links no verifier. Run with a key file and it prints an App Store Server
// API token; the check only links it.
import SigilTokens

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

let arguments = CommandLine.arguments
guard arguments.count == 5, let file = fopen(arguments[1], "rb") else {
    print("usage: tokens-only KEY.p8 KEY_ID ISSUER_ID BUNDLE_ID")
    exit(2)
}
var bytes: [UInt8] = []
var buffer = [UInt8](repeating: 0, count: 4096)
while true {
    let count = fread(&buffer, 1, buffer.count, file)
    if count <= 0 { break }
    bytes += buffer[0..<count]
}
fclose(file)
do {
    let key = try AppleSigningKey(p8: bytes, keyID: arguments[2])
    print(try AppleTokens.appStoreServerAPI(key: key, issuerID: arguments[3], bundleID: arguments[4], issuedAt: Int64(time(nil))))
} catch {
    print("\(error)")
    exit(1)
}
