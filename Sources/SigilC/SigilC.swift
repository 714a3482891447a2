import SigilAppStore
import SigilBase
import SigilService

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The C ABI of include/sigil.h: each function a thin copy between C strings and SigilService.
// The header holds the contract (ownership, threads, stability); this file keeps it.

/// The one service every call shares: its chain cache is locked, so calls may run on any thread.
/// The cache keeps a validated chain `SIGIL_CHAIN_CACHE_SECONDS` seconds (read at the first call:
/// an integer 0…86400, 0 turning the cache off; 900 when unset or anything else). The caller of
/// the C ABI is the operator: a request's trust configuration (`roots`, Xcode, `unpinnedTestRoot`)
/// is accepted and reported in the answer (`trust`, `notEnforced`); Apple's roots that are not
/// built in are read from `SIGIL_ROOTS` (else the per-user data directory) at the first call.
private let service = VerificationService(
    cache: ChainCache(timeToLive: chainCacheSeconds()), requestTrust: .acceptedAndReported)

private func chainCacheSeconds() -> Int64 {
    guard let text = getenv("SIGIL_CHAIN_CACHE_SECONDS"), let seconds = Int64(String(cString: text)), (0...86_400).contains(seconds)
    else { return 900 }
    return seconds
}

/// `sigil_version()`'s string: made once, never freed (the header says so).
nonisolated(unsafe) private let versionString: UnsafeMutablePointer<CChar>? = strdup(SigilVersion.current)

/// The request's bytes: at most `limit` + 1 of them are looked at, so a huge or unterminated-looking
/// string costs no more than the limit (one more byte tells "too large" apart).
private func requestBytes(_ request: UnsafePointer<CChar>, limit: Int) -> [UInt8] {
    let length = strnlen(request, limit + 1)
    return request.withMemoryRebound(to: UInt8.self, capacity: length) { Array(UnsafeBufferPointer(start: $0, count: length)) }
}

/// `text` as a NUL-terminated string from `malloc`, for `sigil_free`; NULL only when out of memory.
/// The intermediate array is wiped (a minted token is a credential): the copy handed out is the
/// caller's.
private func copied(_ text: String) -> UnsafeMutablePointer<CChar>? {
    var utf8: [UInt8] = []
    utf8.reserveCapacity(text.utf8.count + 1)  // one allocation: no grown copy left behind
    utf8 += text.utf8
    utf8.append(0)
    defer { SecretMemory.wipe(&utf8) }
    guard let out = malloc(utf8.count)?.assumingMemoryBound(to: CChar.self) else { return nil }
    utf8.withUnsafeBytes { bytes in
        if let base = bytes.baseAddress { _ = memcpy(out, base, bytes.count) }
    }
    return out
}

/// The answer to the request at `request` (NULL answered as `request.missing`). The copy of the
/// request (for `sigil_mint_token`, the `.p8` key text) is wiped once answered; the caller's buffer
/// is the caller's to wipe (include/sigil.h).
private func answer(
    _ request: UnsafePointer<CChar>?, limit: Int, _ body: ([UInt8]) -> VerificationAnswer
) -> UnsafeMutablePointer<CChar>? {
    guard let request else {
        return copied(VerificationAnswer(ServiceError(.missing, "the request pointer is NULL")).json)
    }
    var bytes = requestBytes(request, limit: limit)
    let json = body(bytes).json
    SecretMemory.wipe(&bytes)
    return copied(json)
}

/// Verifies the request document `request` (NUL-terminated UTF-8 JSON) and returns the answer
/// document, to be released with `sigil_free`. See include/sigil.h.
@_cdecl("sigil_verify")
public func sigil_verify(_ request: UnsafePointer<CChar>?) -> UnsafeMutablePointer<CChar>? {
    answer(request, limit: VerificationRequest.maximumBytes) { service.verify(json: $0) }
}

/// Mints the token the request document `request` names and returns the answer document, to be
/// released with `sigil_free`. See include/sigil.h.
@_cdecl("sigil_mint_token")
public func sigil_mint_token(_ request: UnsafePointer<CChar>?) -> UnsafeMutablePointer<CChar>? {
    answer(request, limit: TokenRequest.maximumBytes) { service.mintToken(json: $0) }
}

/// Releases a string `sigil_verify` or `sigil_mint_token` returned (NULL is ignored).
@_cdecl("sigil_free")
public func sigil_free(_ answer: UnsafeMutablePointer<CChar>?) {
    free(answer)
}

/// Sigil's version ("0.1.0-dev"): a static string the caller must not free.
@_cdecl("sigil_version")
public func sigil_version() -> UnsafePointer<CChar>? {
    UnsafePointer(versionString)
}
