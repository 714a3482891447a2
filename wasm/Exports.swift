// sigil.wasm's exports: the C ABI's functions (include/sigil.h) for a host that shares only linear
// memory with the module. Built by Scripts/build-wasm as Embedded Swift for wasm32-unknown-none-wasm
// with runtime.c (which exports sigil_alloc and sigil_free); sigil.mjs is the host side. The module imports nothing: the host passes the time
// with each call (the module has no clock) and a hash seed once (sigil_seed).
//
// Requests and answers are bytes in the module's memory: the host asks sigil_alloc (runtime.c) for a buffer,
// copies the request's UTF-8 into it and passes (pointer, count). An answer is returned as a
// pointer to 4 bytes of length (little-endian) and then that many bytes of UTF-8: the answer
// document, what sigil_verify / sigil_mint_token of the C ABI return for the same request (the
// same SigilService call builds both). The host frees request buffers and answers with sigil_free.
import SigilASN1
import SigilBase
import SigilJOSE
import SigilService
import SigilX509

/// The service every call shares (its chain cache among it). Apple's roots that are not built in
/// come from sigil_configure; the clock is the time the host passed to the current call.
nonisolated(unsafe) var service = VerificationService(
    cache: ChainCache(), requestTrust: .acceptedAndReported, appleRoots: [], clock: { callTime })

/// The time the host passed with the call being answered (seconds since 1970).
nonisolated(unsafe) var callTime: Int64 = 0

/// The hash seed the host gave (runtime.c's arc4random_buf reads it; the standard library asks for
/// its seed once, at the first hash).
@_extern(c, "sigil_runtime_seed")
func runtimeSeed(_ bytes: UnsafePointer<UInt8>, _ count: Int)

/// Seeds the module's hash tables with `count` bytes at `pointer` (from the host's random source):
/// call it once, right after instantiation, before any other call. Without it the seed is a
/// constant, and a caller who knows it could choose JSON member names that collide.
@_cdecl("sigil_seed")
public func sigilSeed(_ pointer: UnsafePointer<UInt8>, _ count: Int) {
    runtimeSeed(pointer, count)
}

/// The request size limits: 0 for sigil_verify (VerificationRequest.maximumBytes), 1 for
/// sigil_mint_token (TokenRequest.maximumBytes). The host copies at most one byte more than the
/// limit, which is enough for the module to answer request.tooLarge.
@_cdecl("sigil_request_limit")
public func sigilRequestLimit(_ which: Int32) -> Int32 {
    Int32(which == 1 ? TokenRequest.maximumBytes : VerificationRequest.maximumBytes)
}

/// `text` as an answer buffer: 4 bytes of length, little-endian, then the UTF-8 (out of memory
/// traps: the host starts the module afresh).
func answerBuffer(_ text: String) -> UnsafeMutableRawPointer? {
    var utf8 = Array(text.utf8)
    defer { SecretMemory.wipe(&utf8) }  // a minted token is a credential
    let out = UnsafeMutableRawPointer.allocate(byteCount: 4 + utf8.count, alignment: 4)  // freed by the host: sigil_free
    out.storeBytes(of: UInt32(truncatingIfNeeded: utf8.count).littleEndian, as: UInt32.self)
    utf8.withUnsafeBytes { bytes in
        if let base = bytes.baseAddress { (out + 4).copyMemory(from: base, byteCount: bytes.count) }
    }
    return out
}

/// The request's bytes, copied out of the host's buffer (which the host wipes and frees).
func requestBytes(_ pointer: UnsafePointer<UInt8>?, _ count: Int) -> [UInt8] {
    guard let pointer, count > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: pointer, count: count))
}

/// The module's configuration: `{"appleRoots": ["base64 of DER", …], "chainCacheSeconds": N}`.
/// Each root is used only when its SHA-256 fingerprint is the one pinned for its job (the Apple Inc.
/// Root Certificate for receipts, the Apple App Attestation Root CA), as the C ABI's roots
/// directory; `chainCacheSeconds` (0…86400, default 900, 0 turning the cache off) is how long a
/// validated App Store chain is kept, as the C ABI's SIGIL_CHAIN_CACHE_SECONDS. Answers
/// `{"valid": true}` or a request.invalidMember failure document, and keeps the configuration it
/// had on failure.
@_cdecl("sigil_configure")
public func sigilConfigure(_ pointer: UnsafePointer<UInt8>?, _ count: Int) -> UnsafeMutableRawPointer? {
    let bytes = requestBytes(pointer, count)
    let failure = { (reason: String) -> UnsafeMutableRawPointer? in
        answerBuffer(VerificationAnswer(ServiceError(.invalidMember, reason)).json)
    }
    let document: JSONValue
    do { document = try JSONValue(parsing: bytes) } catch { return failure("the configuration is not a JSON document: \(error.reason)") }
    guard let texts = document["appleRoots"]?.arrayValue else { return failure("appleRoots: an array of base64 DER certificates") }
    var roots: [Certificate] = []
    for (index, text) in texts.enumerated() {
        guard let base64 = text.stringValue, let der = try? Base64.decode(Array(base64.utf8)) else {
            return failure("appleRoots[\(index)] is not base64")
        }
        do { roots.append(try Certificate(derEncoded: der)) } catch {
            return failure("appleRoots[\(index)] is not a DER certificate: \(error.reason)")
        }
    }
    var seconds: Int64 = 900
    if let member = document["chainCacheSeconds"] {
        guard let value = member.int64Value, (0...86_400).contains(value) else {
            return failure("chainCacheSeconds: an integer from 0 to 86400")
        }
        seconds = value
    }
    for name in document.objectKeys where name != "appleRoots" && name != "chainCacheSeconds" {
        return failure("unknown configuration member \(JSONValue.quotedForMessage(name))")
    }
    service = VerificationService(
        cache: ChainCache(timeToLive: seconds), requestTrust: .acceptedAndReported, appleRoots: roots, clock: { callTime })
    return answerBuffer("{\"valid\":true}")
}

/// The answer document for the verification request (count bytes at pointer), verified at `now`
/// (seconds since 1970) when the request gives no "at". See include/sigil.h.
@_cdecl("sigil_verify")
public func sigilVerify(_ pointer: UnsafePointer<UInt8>?, _ count: Int, _ now: Int64) -> UnsafeMutableRawPointer? {
    callTime = now
    return answerBuffer(service.verify(json: requestBytes(pointer, count)).json)
}

/// The answer document for the token request (count bytes at pointer), issued at `now` when the
/// request gives no "issuedAt". The copy of the request (the .p8 key) is wiped once answered.
@_cdecl("sigil_mint_token")
public func sigilMintToken(_ pointer: UnsafePointer<UInt8>?, _ count: Int, _ now: Int64) -> UnsafeMutableRawPointer? {
    callTime = now
    var bytes = requestBytes(pointer, count)
    defer { SecretMemory.wipe(&bytes) }
    return answerBuffer(service.mintToken(json: bytes).json)
}

/// Sigil's version, as an answer buffer the host frees.
@_cdecl("sigil_version")
public func sigilVersion() -> UnsafeMutableRawPointer? {
    answerBuffer(SigilVersion.current)
}
