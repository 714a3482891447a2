// The GMP header Sigil includes. Swift cannot import GMP's mpz_*/mpn_* macro names, so
// Sources/SigilCore/BigNum/ and RSA/RSAVerificationPrimitive.swift call the real symbols (__gmpz_*, __gmpn_*).
#ifndef SIGIL_CGMP_SHIM_H
#define SIGIL_CGMP_SHIM_H
#include <gmp.h>

// mpn_sec_invert is documented in the GMP manual ("Low-level Functions", GMP 6.1 and later) and
// exported by libgmp, but <gmp.h> 6.2 does not declare it. These are the manual's prototypes.
mp_size_t __gmpn_sec_invert_itch(mp_size_t n);
int __gmpn_sec_invert(mp_ptr rp, mp_ptr ap, mp_srcptr mp, mp_size_t n, mp_bitcnt_t nbcnt, mp_ptr tp);
#endif
