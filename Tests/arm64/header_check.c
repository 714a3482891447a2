// Compiles Sources/CSigilIntrinsics/include/SigilIntrinsics.h the way the Swift module does (no
// -march flag) for the architecture clang is targeting, with every function of that architecture
// referenced so clang emits them all. Scripts/check-arm64-kernels builds it with -Wall -Wextra
// -Werror for x86-64 and for aarch64; it is never run.

#include "SigilIntrinsics.h"

typedef void (*sigil_any_function)(void);

// The address of every function the header declares on this architecture.
const sigil_any_function sigil_header_functions[] = {
    (sigil_any_function)sigil_cpu_has_sha256_extensions,
    (sigil_any_function)sigil_cpu_has_avx2_bmi2,
    (sigil_any_function)sigil_cpu_has_arm_sha256,
    (sigil_any_function)sigil_cpu_has_arm_sha512,
#if defined(__x86_64__)
    (sigil_any_function)sigil_sha256_compress_shani,
    (sigil_any_function)sigil_sha256_compress_avx2,
    (sigil_any_function)sigil_sha512_compress_avx2,
#endif
#if defined(__aarch64__)
    (sigil_any_function)sigil_sha256_compress_armv8,
    (sigil_any_function)sigil_sha512_compress_armv8,
#endif
};
