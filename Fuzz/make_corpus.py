#!/usr/bin/env python3
"""Builds the seed corpus of each fuzz target from the project's test fixtures.

Usage: make_corpus.py OUTDIR
Writes OUTDIR/<target>/<name> files. Sources: Tests/*/Fixtures in this repository; the Apple
third-party data (found by Scripts/vectors-dir: Apple's certificates, real JWS, receipts, Apple
library test data; missing data stops the run with the helper's message); OCSP responses and certificate chains made here with the openssl CLI (when installed); the committed
regression inputs (Fuzz/Regressions/<target>/) of at most 4 KiB, which seed their own target.
Nothing is downloaded.
"""
import base64, glob, json, os, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = subprocess.run([os.path.join(ROOT, "Scripts", "vectors-dir"), "apple"], stdout=subprocess.PIPE, check=True).stdout.decode().strip()
OUT = sys.argv[1]
TARGETS = ["der", "certificate", "chain", "ocsp", "receipt", "jws", "external-purchase-token", "crl", "cbor", "appattest", "request", "applepay", "mdoc", "hpke"]
COUNT = {t: 0 for t in TARGETS}


def put(target, name, data):
    if isinstance(data, str):
        data = data.encode()
    if not data or len(data) > 1 << 20:
        return
    os.makedirs(os.path.join(OUT, target), exist_ok=True)
    with open(os.path.join(OUT, target, name.replace("/", "_")), "wb") as f:
        f.write(data)
    COUNT[target] += 1


def read(path):
    with open(path, "rb") as f:
        return f.read()


def der_of(data):
    """DER from DER, PEM or base64 text."""
    text = data.strip()
    if text.startswith(b"-----BEGIN"):
        body = b"".join(line for line in text.splitlines() if not line.startswith(b"-----"))
        return base64.b64decode(body)
    if text[:1] == b"0" or text[:1] == b"\x30":
        return data
    try:
        return base64.b64decode(text, validate=False)
    except Exception:
        return data


# 1. Repository fixtures: every DER file seeds the DER reader; certificates seed the parser.
for path in sorted(glob.glob(os.path.join(ROOT, "Tests", "*", "Fixtures", "*"))):
    if path.endswith((".der", ".ber", ".cer")):
        data = read(path)
        put("der", os.path.basename(path), data)
        if "cert" in os.path.basename(path):
            put("certificate", os.path.basename(path), data)
        if path.endswith(".ber"):
            put("receipt", os.path.basename(path), data)

# 2. Apple vectors.
certs = {}
if os.path.isdir(SHARED):
    for path in sorted(glob.glob(os.path.join(SHARED, "real", "**", "*.cer"), recursive=True)
                       + glob.glob(os.path.join(SHARED, "real", "**", "*.der"), recursive=True)):
        data = der_of(read(path))
        certs[os.path.basename(path)] = data
        put("certificate", os.path.basename(path), data)
        put("der", os.path.basename(path), data)
    for path in sorted(glob.glob(os.path.join(SHARED, "real", "jws", "**", "*.jws"), recursive=True)):
        text = read(path).strip()
        put("jws", os.path.basename(path), text)
        # The x5c chain, root first, as the chain target reads it.
        try:
            header = json.loads(base64.urlsafe_b64decode(text.split(b".")[0] + b"=="))
            chain = [base64.b64decode(c) for c in header.get("x5c", [])]
            if chain:
                put("chain", os.path.basename(path), b"".join(reversed(chain)))
                put("jws", os.path.basename(path) + ".payload.json", base64.urlsafe_b64decode(text.split(b".")[1] + b"=="))
        except Exception:
            pass
    for path in sorted(glob.glob(os.path.join(SHARED, "real", "receipts", "**", "receipt-*"), recursive=True)):
        put("receipt", os.path.basename(path), der_of(read(path)))
    for path in sorted(glob.glob(os.path.join(SHARED, "real", "receipts", "**", "*.b64"), recursive=True)):
        put("receipt", os.path.basename(path), read(path))
    library = os.path.join(SHARED, "library", "swift", "Tests", "AppStoreServerLibraryTests", "resources")
    for path in sorted(glob.glob(os.path.join(library, "mock_signed_data", "*")) + glob.glob(os.path.join(library, "xcode", "*"))):
        put("jws", "library-" + os.path.basename(path), read(path).strip())
    for path in sorted(glob.glob(os.path.join(library, "models", "*.json")))[:40]:
        put("jws", "model-" + os.path.basename(path), read(path))

# 3. Apple's four external purchase token examples (from the StoreKit article) and a JWKS.
for i, token in enumerate([
        "eyJhcHBBcHBsZUlkIjoxMjM0NTY3ODkwLCJidW5kbGVJZCI6ImNvbS5leGFtcGxlIiwidG9rZW5DcmVhdGlvbkRhdGUiOjE3NTA4OTYwMDAwMDAsImV4dGVybmFsUHVyY2hhc2VJZCI6IjAwMDAwMDAwLTAwMDAtMDAwMC0wMDAwLTAwMDAwMDAwMDAwMCIsInRva2VuVHlwZSI6IlNFUlZJQ0VTIiwidG9rZW5FeHBpcmF0aW9uRGF0ZSI6MTc4MjQzMjAwMDAwMH0K",
        "eyJhcHBBcHBsZUlkIjoxMjM0NTY3ODkwLCJidW5kbGVJZCI6ImNvbS5leGFtcGxlIiwidG9rZW5DcmVhdGlvbkRhdGUiOjE3MDYxNjk2MDAwMDAsImV4dGVybmFsUHVyY2hhc2VJZCI6IlNBTkRCT1hfMDAwMDAwMDAtMDAwMC0wMDAwLTAwMDAtMDAwMDAwMDAwMDAwIiwidG9rZW5UeXBlIjoiU0VSVklDRVMiLCJ0b2tlbkV4cGlyYXRpb25EYXRlIjoxNzA2MTczMjAwMDAwfQo=",
        "eyJhcHBBcHBsZUlkIjoxMjM0NTY3ODkwLCJidW5kbGVJZCI6ImNvbS5leGFtcGxlIiwidG9rZW5DcmVhdGlvbkRhdGUiOjE3MzA0NDg3MjAwMDAsImV4dGVybmFsUHVyY2hhc2VJZCI6IlNBTkRCT1hfMDAwMDAwMDAtMDAwMC0wMDAwLTAwMDAtMDAwMDAwMDAwMDAwIiwidG9rZW5UeXBlIjoiU0VSVklDRVMiLCJ0b2tlbkV4cGlyYXRpb25EYXRlIjoxNzMwNDUyMzIwMDAwfQ==",
        base64.urlsafe_b64encode(json.dumps({"appAppleId": 1, "bundleId": "b", "tokenCreationDate": 1, "externalPurchaseId": "x"}).encode()).rstrip(b"=").decode(),
]):
    put("external-purchase-token", "example-%d" % i, token)
put("jws", "jwks.json", json.dumps({"keys": [
    {"kty": "RSA", "kid": "k", "alg": "RS256", "use": "sig", "n": "sXch" * 64, "e": "AQAB"},
    {"kty": "EC", "crv": "P-256", "x": "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU", "y": "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}]}))

# 4. openssl-made material: a CA, a leaf, the chain, and an OCSP response about the leaf.
def openssl(*args, cwd):
    return subprocess.run(["openssl"] + list(args), cwd=cwd, capture_output=True).returncode == 0

try:
    with tempfile.TemporaryDirectory() as tmp:
        ok = openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "ca.key", "-out", "ca.pem",
                     "-subj", "/CN=Fuzz CA", "-days", "3650", "-addext", "basicConstraints=critical,CA:TRUE", cwd=tmp)
        ok = ok and openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "leaf.key", "-out", "leaf.csr",
                            "-subj", "/CN=Fuzz leaf", cwd=tmp)
        ok = ok and openssl("x509", "-req", "-in", "leaf.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-set_serial", "4660", "-days", "3650",
                            "-out", "leaf.pem", cwd=tmp)
        if ok:
            ca, leaf = der_of(read(os.path.join(tmp, "ca.pem"))), der_of(read(os.path.join(tmp, "leaf.pem")))
            put("chain", "openssl-ca-leaf", ca + leaf)
            put("der", "openssl-leaf-key.pem", read(os.path.join(tmp, "leaf.key")))
            put("certificate", "openssl-leaf", leaf)
            with open(os.path.join(tmp, "index.txt"), "w") as f:
                f.write("V\t351231000000Z\t\t1234\tunknown\t/CN=Fuzz leaf\n")
            if openssl("ocsp", "-issuer", "ca.pem", "-cert", "leaf.pem", "-reqout", "req.der", cwd=tmp) and \
               openssl("ocsp", "-index", "index.txt", "-rsigner", "ca.pem", "-rkey", "ca.key", "-CA", "ca.pem", "-reqin", "req.der",
                       "-respout", "resp.der", "-ndays", "1", cwd=tmp):
                put("ocsp", "openssl-good", read(os.path.join(tmp, "resp.der")))
                put("der", "openssl-ocsp-request", read(os.path.join(tmp, "req.der")))
except FileNotFoundError:
    pass
put("ocsp", "unauthorized", bytes([0x30, 0x03, 0x0A, 0x01, 0x06]))

# 5. CRLs: NIST PKITS (every kind RFC 5280 §5 has: deltas, indirect, distribution points,
#    reasons, unknown extensions) and pyca/cryptography's, committed under Vectors/.
for path in sorted(glob.glob(os.path.join(ROOT, "Vectors", "pkits", "crls", "*.crl"))):
    put("crl", "pkits-" + os.path.basename(path), read(path))
for path in sorted(glob.glob(os.path.join(ROOT, "Vectors", "pyca", "crl_*.pem"))):
    put("crl", "pyca-" + os.path.basename(path), read(path))
    put("crl", "pyca-der-" + os.path.basename(path), der_of(read(path)))

# 6. CBOR: Apple's sample attestation object (found by Scripts/vectors-dir appattest), the
#    real-device objects beside it, and items of RFC 8949 Appendix A.
APPATTEST = subprocess.run([os.path.join(ROOT, "Scripts", "vectors-dir"), "appattest"], stdout=subprocess.PIPE, check=True).stdout.decode().strip()
for path in sorted(glob.glob(os.path.join(APPATTEST, "*.cbor"))):
    data = read(path)
    put("cbor", os.path.basename(path), data)
    put("appattest", os.path.basename(path), data)
# ... and every real device's attestation and assertion (real-devices/<source>/*.cbor), with each
# assertion's authenticator data alone (37 bytes, flags 0x40), for the raw AuthenticatorData case.
for path in sorted(glob.glob(os.path.join(APPATTEST, "real-devices", "*", "*.cbor"))):
    data = read(path)
    name = os.path.basename(os.path.dirname(path)) + "-" + os.path.basename(path)
    put("cbor", name, data)
    put("appattest", name, data)
    marker = b"qauthenticatorData"  # CBOR text "authenticatorData" (17 bytes: head 0x71)
    at = data.find(marker)
    if at >= 0 and at + len(marker) + 2 <= len(data) and data[at + len(marker)] == 0x58:
        length = data[at + len(marker) + 1]
        start = at + len(marker) + 2
        put("appattest", name + "-authenticator-data", data[start:start + length])
for i, item in enumerate(["a201020304", "a26161016162820203", "826161a161626163", "8301820203820405", "1bffffffffffffffff",
                          "3bffffffffffffffff", "64f0908591", "5f42010243030405ff", "bf6346756ef563416d7421ff", "c11a514b67b0",
                          "fb3ff199999999999a", "f97c00"]):
    put("cbor", "rfc8949-a-%d" % i, bytes.fromhex(item))

# SigilService's request documents: every request of the conformance file (files placed).
sys.path.insert(0, os.path.join(ROOT, "Conformance"))
import conformance  # noqa: E402

for i, (_, request, _, _) in enumerate(conformance.load_cases()):
    put("request", "conformance-%02d" % i, request)

# 7. Regression inputs seed their own target, up to SEED_LIMIT bytes. libFuzzer starts its length
# limit at the largest seed, and every reader of a target walks the whole input, so one 20 KB seed
# makes every mutation of the run cost 20 KB of work; the larger inputs (nesting bombs, oversized
# tokens, line floods) are replayed, and mutated, by SigilFuzzTests in every test run instead.
SEED_LIMIT = 4096
# The real Apple Pay tokens (their JSON, and the plaintexts for the payment reader).
APPLEPAY = subprocess.run([os.path.join(ROOT, "Scripts", "vectors-dir"), "applepay"], stdout=subprocess.PIPE, check=True).stdout.decode().strip()
for path in sorted(glob.glob(os.path.join(APPLEPAY, "*", "*.json"))):
    put("applepay", os.path.relpath(path, APPLEPAY), read(path))

# ISO/IEC 18013-5 Annex D (found by Scripts/vectors-dir mdoc): the DeviceResponse, the session
# transcript, the reader's COSE_Sign1 and the device key bytes for the mdoc target.
MDOC = subprocess.run([os.path.join(ROOT, "Scripts", "vectors-dir"), "mdoc"], stdout=subprocess.PIPE, check=True).stdout.decode().strip()
for name in ["device-response.cbor", "session-transcript-bytes.cbor", "reader-auth.cbor", "e-device-key-bytes.cbor", "device-request.cbor"]:
    put("mdoc", name, read(os.path.join(MDOC, "iso18013-5-annex-d", name)))

for target in TARGETS:
    for path in sorted(glob.glob(os.path.join(ROOT, "Fuzz", "Regressions", target, "*"))):
        if os.path.getsize(path) <= SEED_LIMIT:
            put(target, "regression-" + os.path.basename(path), read(path))

print(" ".join("%s=%d" % (t, COUNT[t]) for t in TARGETS))
