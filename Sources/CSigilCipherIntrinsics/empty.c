// SwiftPM needs one source file in a C target. Everything lives in include/SigilCipherIntrinsics.h
// as static inline functions, compiled into SigilCipher, the one module that imports it.
