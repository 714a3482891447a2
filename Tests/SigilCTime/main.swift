import SigilASN1
import SigilAppStore
import SigilCTimeShim
import SigilCipher
import SigilCore
import SigilKeys
import SigilTokens

// The constant-time harness, run under valgrind memcheck by Tests/SigilCoreTests/ConstantTimeTests.swift.
//
// It marks every private key, nonce-derivation input and hedging entropy "undefined", then loads
// keys, derives public keys and signs on both curves with every hash. memcheck reports any
// conditional jump or memory address computed from undefined bytes, so a clean run means no
// branch and no table index depends on the secrets — except at the declassification points
// (Choice.isTrueVartime), which mark their public result defined.
//
// Then the .p8 path: PKCS#8 and SEC 1 DER with only the private-key octets marked secret (tags,
// lengths, OIDs and the public key are public structure), loaded into an AppleSigningKey, and
// every Apple token builder run with it (App Store Server API, External Purchase Server API, Sign
// in with Apple client secret, ProximityReader reader token, promotional offer v1 and v2,
// introductory-offer eligibility, Advanced Commerce in-app request). And the PEM layer above DER
// (SecretPEM, the decoder key loading uses) with the whole base64 body secret.
//
// `--leaky` adds one deliberate secret-dependent branch, to show the check catches it;
// `--table-pem` decodes the PEM keys with the table-driven PEMDocument, which it must also catch.

ConstantTimeAudit.declassifyHook = { address, length in sigil_ctime_mark_public(address, length) }
let leaky = CommandLine.arguments.contains("--leaky")
var sink: UInt8 = 0

for curve in ECCurve.allCases {
    for hash in HashAlgorithm.allCases {
        var secret = [UInt8](repeating: 0, count: curve.byteCount)
        for i in secret.indices { secret[i] = UInt8(truncatingIfNeeded: 0x5A &+ i &* 29 &+ Int(hash.digestByteCount)) }
        let entropy = [UInt8](repeating: 0xA5, count: 32)
        secret.withUnsafeBytes { sigil_ctime_mark_secret($0.baseAddress, $0.count) }
        entropy.withUnsafeBytes { sigil_ctime_mark_secret($0.baseAddress, $0.count) }
        if leaky, secret[0] & 1 == 1 { sink &+= 1 }  // the deliberate leak
        guard let key = try? ECDSAPrivateKey(rawRepresentation: secret, curve: curve) else {
            print("key rejected")
            continue
        }
        let message: [UInt8] = Array("constant-time check \(curve.rawValue) \(hash.rawValue)".utf8)
        for extra in [[UInt8](), entropy] {
            let signature = key.signature(for: message, hash: hash, extraEntropy: extra).rawRepresentation
            signature.withUnsafeBytes { sigil_ctime_mark_public($0.baseAddress, $0.count) }
            sink &+= signature[0]
        }
        let exported = key.rawRepresentation
        exported.withUnsafeBytes { sigil_ctime_mark_public($0.baseAddress, $0.count) }
    }
}
// The SHA-2 compressions directly, on each path this CPU offers (the accelerated ones first, then the
// portable one, each forced): HMAC under a secret key over a secret message, for one to five blocks
// (odd and even runs, which the two-block AVX2 kernels handle differently). Under valgrind the SHA-256
// paths are AVX2 and portable (valgrind hides the SHA extensions).
let forcedAtStart = DigestBackend.forced
for backend in DigestBackend.available(for: .sha256) {
    DigestBackend.forced = backend
    for length in [0, 50, 100, 150, 250] {
        let key = (0..<32).map { UInt8(truncatingIfNeeded: 0x35 &+ $0 &* 7) }
        let message = (0..<length).map { UInt8(truncatingIfNeeded: 0x4B &+ $0 &* 3) }
        key.withUnsafeBytes { sigil_ctime_mark_secret($0.baseAddress, $0.count) }
        message.withUnsafeBytes { sigil_ctime_mark_secret($0.baseAddress, $0.count) }
        let mac = HMAC<SHA256>.authenticationCode(key: key, message: message)
        mac.withUnsafeBytes { sigil_ctime_mark_public($0.baseAddress, $0.count) }
        sink &+= mac[0]
    }
    print("SHA-256 HMAC with secret inputs: \(DigestBackend.current(for: .sha256).rawValue)")
}
for backend in DigestBackend.available(for: .sha512) {
    DigestBackend.forced = backend
    for length in [0, 100, 200, 300, 600] {
        let key = (0..<48).map { UInt8(truncatingIfNeeded: 0x35 &+ $0 &* 7) }
        let message = (0..<length).map { UInt8(truncatingIfNeeded: 0x4B &+ $0 &* 3) }
        key.withUnsafeBytes { sigil_ctime_mark_secret($0.baseAddress, $0.count) }
        message.withUnsafeBytes { sigil_ctime_mark_secret($0.baseAddress, $0.count) }
        for mac in [
            HMAC<SHA384>.authenticationCode(key: key, message: message), HMAC<SHA512>.authenticationCode(key: key, message: message),
        ] {
            mac.withUnsafeBytes { sigil_ctime_mark_public($0.baseAddress, $0.count) }
            sink &+= mac[0]
        }
    }
    print("SHA-384/512 HMAC with secret inputs: \(DigestBackend.current(for: .sha512).rawValue)")
}
DigestBackend.forced = forcedAtStart

/// Marks the private-key octets of `der` (the first occurrence of `raw`) secret; the rest stays
/// public structure.
func markKeyOctets(_ der: [UInt8], _ raw: [UInt8]) -> Bool {
    guard let range = der.firstRange(of: raw) else { return false }
    der.withUnsafeBytes { sigil_ctime_mark_secret($0.baseAddress! + range.lowerBound, raw.count) }
    return true
}

for curve in ECCurve.allCases {
    var raw = [UInt8](repeating: 0, count: curve.byteCount)
    for i in raw.indices { raw[i] = UInt8(truncatingIfNeeded: 0x3C &+ i &* 17) }
    guard let original = try? ECDSAPrivateKey(rawRepresentation: raw, curve: curve) else { fatalError("fixed key rejected") }
    for (format, der) in [("pkcs8", original.pkcs8DER), ("sec1", original.sec1DER)] {
        guard markKeyOctets(der, raw) else { fatalError("\(format): key octets not found") }
        let loaded = format == "pkcs8" ? try? ECDSAPrivateKey(pkcs8DER: der) : try? ECDSAPrivateKey(sec1DER: der)
        guard let key = loaded else { fatalError("\(format) key rejected") }
        if leaky, format == "sec1", der[der.count / 2] & 1 == 1 { sink &+= 1 }
        let signature = key.signature(for: Array("loaded from \(format)".utf8), hash: curve.defaultHash).rawRepresentation
        signature.withUnsafeBytes { sigil_ctime_mark_public($0.baseAddress, $0.count) }
        sink &+= signature[0]
    }
}

// PEM (the .p8 file as App Store Connect hands it out): the whole base64 body secret, line breaks
// included, through SecretPEM; then the DER layer as above (structure public, key octets secret).
for curve in ECCurve.allCases {
    var raw = [UInt8](repeating: 0, count: curve.byteCount)
    for i in raw.indices { raw[i] = UInt8(truncatingIfNeeded: 0x21 &+ i &* 11) }
    guard let original = try? ECDSAPrivateKey(rawRepresentation: raw, curve: curve) else { fatalError("fixed key rejected") }
    let pem = Array(original.pkcs8PEM.utf8)
    guard let firstBreak = pem.firstIndex(of: 0x0A), let end = pem.firstRange(of: Array("-----END".utf8)) else { fatalError("PEM layout") }
    pem.withUnsafeBytes { sigil_ctime_mark_secret($0.baseAddress! + firstBreak + 1, end.lowerBound - firstBreak - 1) }
    // --table-pem: decode with the general-purpose PEMDocument (table-driven base64) instead, to
    // show that the marking reaches the PEM layer: memcheck must then report.
    let der: [UInt8]
    if CommandLine.arguments.contains("--table-pem") {
        guard let document = try? PEMDocument.parseAll(String(decoding: pem, as: UTF8.self)).first else { fatalError("PEM rejected") }
        der = document.derBytes
    } else {
        guard let block = try? SecretPEM.decode(pem).first else { fatalError("PEM rejected") }
        der = block.der
    }
    der.withUnsafeBytes { sigil_ctime_mark_public($0.baseAddress, $0.count) }
    guard markKeyOctets(der, raw), let key = try? ECDSAPrivateKey(pkcs8DER: der) else { fatalError("PEM key octets") }
    let signature = key.signature(for: Array("loaded from PEM".utf8), hash: curve.defaultHash).rawRepresentation
    sink &+= signature[0]
}
print("PEM key loading: done")

// The token builders, with a .p8-style P-256 key loaded from PKCS#8 DER whose key octets are secret.
do {
    var raw = [UInt8](repeating: 0, count: 32)
    for i in raw.indices { raw[i] = UInt8(truncatingIfNeeded: 0x71 &+ i &* 13) }
    guard let original = try? ECDSAPrivateKey(rawRepresentation: raw, curve: .p256) else { fatalError("fixed key rejected") }
    let der = original.pkcs8DER
    guard markKeyOctets(der, raw) else { fatalError("p8: key octets not found") }
    let key = try AppleSigningKey(p8: der, keyID: "CTIMEKEY01")
    let t: Int64 = 1_790_000_000
    var tokens: [String] = []
    tokens.append(try AppleTokens.appStoreServerAPI(key: key, issuerID: "issuer", bundleID: "com.example", issuedAt: t))
    tokens.append(try AppleTokens.externalPurchaseServerAPI(key: key, issuerID: "issuer", bundleID: "com.example", issuedAt: t))
    tokens.append(try AppleTokens.signInWithAppleClientSecret(key: key, teamID: "TEAM", clientID: "com.example.web", issuedAt: t))
    tokens.append(try AppleTokens.proximityReaderToken(key: key, brandID: "brand", readerID: "reader", issuedAt: t))
    tokens.append(try AppleTokens.deviceCheck(key: key, teamID: "TEAM", issuedAt: t))
    tokens.append(
        try AppleTokens.promotionalOfferV2(
            key: key, issuerID: "issuer", bundleID: "com.example", productID: "p", offerIdentifier: "o",
            transactionID: "1", nonce: "n", issuedAt: t))
    tokens.append(
        try AppleTokens.introductoryOfferEligibility(
            key: key, issuerID: "issuer", bundleID: "com.example", productID: "p",
            allowIntroductoryOffer: true, transactionID: "1", issuedAt: t))
    tokens.append(
        try AppleTokens.advancedCommerceInAppRequest(
            key: key, issuerID: "issuer", bundleID: "com.example",
            requestJSON: Array(#"{"operation":"CREATE_SUBSCRIPTION","version":"1"}"#.utf8), issuedAt: t))
    tokens.append(
        AppleTokens.promotionalOfferV1(key: key, bundleID: "com.example", productID: "p", offerID: "o", nonce: "n", timestamp: t * 1000))
    for token in tokens { sink &+= token.utf8.last ?? 0 }
    print("token builders: \(tokens.count) tokens")
}

// The decryption primitives (SigilCipher). AES-GCM under a secret key over a secret plaintext, on
// each path this CPU offers (AES-NI and PCLMULQDQ, which valgrind executes, and the portable one),
// with a 12- and a 16-byte IV (the second takes the GHASH-derived J0) and decryption of the result;
// ECDH with a secret scalar and the one-step KDF over the secret Z; RSA-OAEP decryption with the
// private exponent secret (the key is loaded from numbers here; the blinding factor comes from the
// system generator).
// `--leaky-aes` adds one lookup in a 256-entry table indexed by a key byte (what a table-driven AES
// does), which memcheck must report.
let forcedCipher = CipherBackend.forced
for backend in CipherBackend.available {
    CipherBackend.forced = backend
    for keySize in [16, 32] {
        let key = (0..<keySize).map { UInt8(truncatingIfNeeded: 0x17 &+ $0 &* 31) }
        let plaintext = (0..<100).map { UInt8(truncatingIfNeeded: 0x61 &+ $0 &* 5) }
        key.withUnsafeBytes { sigil_ctime_mark_secret($0.baseAddress, $0.count) }
        plaintext.withUnsafeBytes { sigil_ctime_mark_secret($0.baseAddress, $0.count) }
        if CommandLine.arguments.contains("--leaky-aes") {
            let table = (0..<256).map { UInt8(truncatingIfNeeded: $0 &* 7) }
            sink &+= table[Int(key[3])]
        }
        for ivLength in [12, 16] {
            let gcm = try AESGCM(key: key)
            let iv = [UInt8](repeating: 0, count: ivLength)
            let sealed = try gcm.seal(plaintext, iv: iv, additionalData: [1, 2, 3])
            // The ciphertext and tag are public once made.
            sealed.ciphertext.withUnsafeBytes { sigil_ctime_mark_public($0.baseAddress, $0.count) }
            sealed.tag.withUnsafeBytes { sigil_ctime_mark_public($0.baseAddress, $0.count) }
            let opened = try gcm.open(sealed.ciphertext, iv: iv, additionalData: [1, 2, 3], tag: sealed.tag)
            var forged = sealed.tag
            forged[0] ^= 1
            if (try? gcm.open(sealed.ciphertext, iv: iv, additionalData: [1, 2, 3], tag: forged)) != nil {
                fatalError("forged tag accepted")
            }
            opened.withUnsafeBytes { sigil_ctime_mark_public($0.baseAddress, $0.count) }
            sink &+= opened[0]
        }
    }
    print("AES-GCM with secret key and data: \(CipherBackend.current.rawValue)")
}
CipherBackend.forced = forcedCipher
do {
    var scalar = [UInt8](repeating: 0, count: 32)
    for i in scalar.indices { scalar[i] = UInt8(truncatingIfNeeded: 0x29 &+ i &* 23) }
    let peer = ECDSAPrivateKey.generate(curve: .p256).publicKey
    scalar.withUnsafeBytes { sigil_ctime_mark_secret($0.baseAddress, $0.count) }
    let key = try ECDSAPrivateKey(rawRepresentation: scalar, curve: .p256)
    let z = try key.sharedSecret(with: peer)
    let derived = try ConcatKDF.deriveKey(sharedSecret: z, fixedInfo: Array("\u{0D}id-aes256-GCMApple".utf8), length: 32)
    derived.withUnsafeBytes { sigil_ctime_mark_public($0.baseAddress, $0.count) }
    sink &+= derived[0]
    print("ECDH and KDF with a secret scalar: done")
}
do {
    // A 2048-bit key (public numbers; d secret), and a ciphertext made with the public key by GMP.
    let n = try BigNum(hexString: ctimeRSAModulus)
    let d = try BigNum(hexString: ctimeRSAPrivateExponent)
    let e = BigNum(65537)
    let dBytes = try d.bytes(width: 256)
    dBytes.withUnsafeBytes { sigil_ctime_mark_secret($0.baseAddress, $0.count) }
    let key = try RSAPrivateKey(modulus: try n.bytes(width: 256), publicExponent: e.magnitudeBytes, privateExponent: dBytes)
    // EM = 00 ‖ seed ‖ DB for "ctime" with SHA-256 (made here, public), encrypted with e.
    let message = Array("ctime".utf8)
    let em = ctimeOAEPEncode(message, k: 256)
    let c = try BigNum(magnitude: em).power(e, modulo: n).bytes(width: 256)
    let decrypted = try key.decryptOAEP(c)
    decrypted.withUnsafeBytes { sigil_ctime_mark_public($0.baseAddress, $0.count) }
    guard decrypted == message else { fatalError("RSA-OAEP round trip") }
    var bad = c
    bad[100] ^= 1
    if (try? key.decryptOAEP(bad)) != nil { fatalError("a damaged ciphertext was accepted") }
    print("RSA-OAEP decryption with a secret exponent: done")
}

// Which SHA-256 compression ran the HMACs of RFC 6979 above. Under valgrind it is the AVX2 one (or the
// portable one on a CPU without AVX2): valgrind clears the SHA bit of the CPUID it reports (and cannot
// execute SHA256RNDS2), so the probe falls back by itself.
print("SHA-256 backend: \(DigestBackend.current.rawValue)")
// And which SHA-384/512 compression ran the P-384 signatures' hashing and HMACs.
print("SHA-384/512 backend: \(DigestBackend.current(for: .sha384).rawValue)")
print("ctime harness done (valgrind: \(sigil_ctime_running_on_valgrind()), shim: \(sigil_ctime_available()), sink \(sink))")

/// RFC 8017 §7.1.1 step 2 (EME-OAEP encoding, SHA-256, empty label) with a fixed seed: the
/// harness's public test ciphertext.
func ctimeOAEPEncode(_ message: [UInt8], k: Int) -> [UInt8] {
    let hLen = 32
    let lHash = HashAlgorithm.sha256.hash([UInt8]())
    let db = lHash + [UInt8](repeating: 0, count: k - message.count - 2 * hLen - 2) + [1] + message
    let seed = [UInt8](repeating: 0x5C, count: hLen)
    func mgf1(_ input: [UInt8], _ length: Int) -> [UInt8] {
        var out: [UInt8] = []
        var counter: UInt32 = 0
        while out.count < length {
            out += HashAlgorithm.sha256.hash(
                input + [UInt8(counter >> 24), UInt8(counter >> 16 & 0xFF), UInt8(counter >> 8 & 0xFF), UInt8(counter & 0xFF)])
            counter += 1
        }
        return Array(out.prefix(length))
    }
    let maskedDB = zip(db, mgf1(seed, k - hLen - 1)).map { $0 ^ $1 }
    let maskedSeed = zip(seed, mgf1(maskedDB, hLen)).map { $0 ^ $1 }
    return [0] + maskedSeed + maskedDB
}
