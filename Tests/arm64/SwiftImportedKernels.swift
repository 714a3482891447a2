// The arm64 kernels as Swift compiles them: Scripts/check-arm64-kernels builds this file with
// Embedded Swift for aarch64-none-none-elf (the toolchain ships no Linux arm64 standard library here),
// so swiftc's Clang importer imports Sources/CSigilIntrinsics/include/SigilIntrinsics.h and emits the
// kernels the way it does for SigilCore, and links it into Tests/arm64/sha2_harness.c (built with
// -DSIGIL_HARNESS_SWIFT_KERNELS) to run the harness's checks on them under qemu-user. Each wrapper
// passes the chaining value the way SHA256Core and SHA512Core do: a tuple rebound to its words.

import CSigilIntrinsics

/// `sigil_sha256_compress_armv8` called from Swift, as SHA256Core calls it.
@_cdecl("sigil_swift_sha256_compress_armv8")
public func swiftSHA256CompressARMv8(_ state: UnsafeMutablePointer<UInt32>, _ blocks: UnsafePointer<UInt8>, _ count: Int) {
    var words = (state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7])
    withUnsafeMutablePointer(to: &words) {
        $0.withMemoryRebound(to: UInt32.self, capacity: 8) { sigil_sha256_compress_armv8($0, blocks, count) }
    }
    (state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7]) = words
}

/// `sigil_sha512_compress_armv8` called from Swift, as SHA512Core calls it.
@_cdecl("sigil_swift_sha512_compress_armv8")
public func swiftSHA512CompressARMv8(_ state: UnsafeMutablePointer<UInt64>, _ blocks: UnsafePointer<UInt8>, _ count: Int) {
    var words = (state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7])
    withUnsafeMutablePointer(to: &words) {
        $0.withMemoryRebound(to: UInt64.self, capacity: 8) { sigil_sha512_compress_armv8($0, blocks, count) }
    }
    (state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7]) = words
}
