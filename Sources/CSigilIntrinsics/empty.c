// SwiftPM needs one source file in a C target. Everything lives in include/SigilIntrinsics.h as
// static inline functions, compiled into the Swift modules that import it.
