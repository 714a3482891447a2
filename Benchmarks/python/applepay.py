#!/usr/bin/env python3
"""Apple Pay EC_v1 tokens verified and decrypted per second: pyca/cryptography doing the steps Sigil
does, against Sigil (sigil-bench --applepay-rate, a child process), rounds interleaved, one run.
Run by Benchmarks/python/applepay.sh; never by the tests.

The token is the real 2021 production token `spreedly-gala` of the Apple Pay vectors (Scripts/
vectors-dir applepay), judged at its signing time. pyca/cryptography has no CMS verifier, so the
CMS walk is a small BER reader here (the token's SignedData uses indefinite lengths); every
cryptographic step is pyca's (OpenSSL):
  verify:  the signed attributes' messageDigest = SHA-256(ephemeralPublicKey ‖ data ‖ transactionId);
           the ECDSA signature over the DER SET of signed attributes with the leaf's key; the leaf's
           signature by the intermediate and the intermediate's by Apple Root CA - G3 (both ECDSA);
           the marker OIDs (leaf 1.2.840.113635.100.6.29, intermediate …6.2.14); validity at the
           signing time; the signing time within 300 s of `at`.
  decrypt: ECDH (P-256) of the merchant key with the ephemeral key, the one-step KDF (ConcatKDFHash,
           SHA-256, other info 0x0D ‖ "id-aes256-GCM" ‖ "Apple" ‖ merchant identifier hash),
           AES-256-GCM with a 16-byte zero IV; the plaintext parsed as JSON.
"""
import base64
import datetime
import hashlib
import json
import os
import platform
import statistics
import subprocess
import sys

import rates

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.concatkdf import ConcatKDFHash

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SECONDS = float(os.environ.get("BENCH_SECONDS", "2"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))


def vectors(name):
    return subprocess.run([os.path.join(ROOT, "Scripts", "vectors-dir"), name], stdout=subprocess.PIPE, check=True).stdout.decode().strip()


def ber(data, offset=0):
    """(tag, content start, content end, element end) of the BER element at offset."""
    tag = data[offset]
    length = data[offset + 1]
    start = offset + 2
    if length == 0x80:  # indefinite: the content runs to the matching end-of-contents
        position = start
        while data[position:position + 2] != b"\x00\x00":
            position = ber(data, position)[3]
        return tag, start, position, position + 2
    if length & 0x80:
        count = length & 0x7F
        length = int.from_bytes(data[start:start + count], "big")
        start += count
    return tag, start, start + length, start + length


def children(data, start, end):
    out = []
    while start < end and data[start:start + 2] != b"\x00\x00":
        element = ber(data, start)
        out.append((start,) + element)
        start = element[3]
    return out


def content(data, element):
    """The bytes of a (possibly constructed, BER-chunked) OCTET STRING."""
    offset, tag, start, end, _ = element
    if tag & 0x20:
        return b"".join(content(data, child) for child in children(data, start, end))
    return data[start:end]


MARKER_LEAF = x509.ObjectIdentifier("1.2.840.113635.100.6.29")
MARKER_INTERMEDIATE = x509.ObjectIdentifier("1.2.840.113635.100.6.2.14")
MERCHANT_ID = x509.ObjectIdentifier("1.2.840.113635.100.6.32")


class Pyca:
    def __init__(self, token, root, merchant_key, merchant_cert):
        self.token, self.root = token, root
        self.key = serialization.load_pem_private_key(merchant_key, None)
        extension = merchant_cert.extensions.get_extension_for_oid(MERCHANT_ID).value.value
        self.merchant_hash = bytes.fromhex(extension[2:].decode())  # UTF8String header, 64 hex digits
        self.public_key_hash = hashlib.sha256(
            self.key.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)).digest()

    def verify(self, at):
        token = self.token
        header = token["header"]
        signed = base64.b64decode(header["ephemeralPublicKey"]) + base64.b64decode(token["data"]) + bytes.fromhex(header["transactionId"])
        if "applicationData" in header:
            signed += bytes.fromhex(header["applicationData"])
        cms = base64.b64decode(token["signature"])
        _, start, end, _ = ber(cms)  # ContentInfo
        signed_data = children(cms, children(cms, start, end)[1][2], children(cms, start, end)[1][3])[0]
        fields = children(cms, signed_data[2], signed_data[3])
        certificates = [x509.load_der_x509_certificate(cms[c[0]:c[4]]) for c in children(cms, fields[3][2], fields[3][3])]
        signer = children(cms, fields[-1][2], fields[-1][3])[0]
        parts = children(cms, signer[2], signer[3])
        attributes = next(p for p in parts if p[1] == 0xA0)
        attribute_set = b"\x31" + cms[attributes[0] + 1:attributes[4]]  # [0] IMPLICIT re-tagged as SET (DER here)
        digest, signing_time = None, None
        for attribute in children(cms, attributes[2], attributes[3]):
            oid_element, values = children(cms, attribute[2], attribute[3])
            oid = cms[oid_element[2]:oid_element[3]]
            value = children(cms, values[2], values[3])[0]
            if oid == bytes.fromhex("2a864886f70d010904"):
                digest = cms[value[2]:value[3]]
            elif oid == bytes.fromhex("2a864886f70d010905"):
                signing_time = datetime.datetime.strptime(cms[value[2]:value[3]].decode(), "%y%m%d%H%M%SZ").replace(tzinfo=datetime.timezone.utc)
        assert digest == hashlib.sha256(signed).digest(), "messageDigest"
        signature = content(cms, parts[-1])
        leaf = next(c for c in certificates if c.extensions.get_extension_for_oid(MARKER_LEAF))
        intermediate = next(c for c in certificates if c is not leaf)
        intermediate.extensions.get_extension_for_oid(MARKER_INTERMEDIATE)
        leaf.public_key().verify(signature, attribute_set, ec.ECDSA(hashes.SHA256()))
        leaf.verify_directly_issued_by(intermediate)
        intermediate.verify_directly_issued_by(self.root)
        for certificate in (leaf, intermediate, self.root):
            assert certificate.not_valid_before_utc <= signing_time <= certificate.not_valid_after_utc, "validity"
        assert abs(signing_time.timestamp() - at) <= 300, "signing time"

    def decrypt(self):
        header = self.token["header"]
        assert base64.b64decode(header["publicKeyHash"]) == self.public_key_hash, "publicKeyHash"
        ephemeral = serialization.load_der_public_key(base64.b64decode(header["ephemeralPublicKey"]))
        z = self.key.exchange(ec.ECDH(), ephemeral)
        other = b"\x0did-aes256-GCM" + b"Apple" + self.merchant_hash
        key = ConcatKDFHash(hashes.SHA256(), 32, other).derive(z)
        data = base64.b64decode(self.token["data"])
        return json.loads(AESGCM(key).decrypt(bytes(16), data, None))


def rate(call):
    return rates.rate(call, SECONDS)


def main():
    bench = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "Benchmarks", ".build", "release", "sigil-bench")
    directory = os.path.join(vectors("applepay"), "spreedly-gala")
    token = json.load(open(os.path.join(directory, "token.json")))
    token = token.get("paymentData", token)
    expected = json.load(open(os.path.join(vectors("applepay"), "expected.json")))["spreedly-gala"]
    at = int(datetime.datetime.strptime(expected["signingTime"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=datetime.timezone.utc).timestamp())
    root = x509.load_der_x509_certificate(open(os.path.join(vectors("apple"), "real/apple-pki/AppleRootCA-G3.cer"), "rb").read())
    pyca = Pyca(token, root, open(os.path.join(directory, "merchant_key.pem"), "rb").read(),
                x509.load_pem_x509_certificate(open(os.path.join(directory, "merchant_cert.pem"), "rb").read()))
    pyca.verify(at)
    plaintext = pyca.decrypt()
    assert hashlib.sha256(json.dumps(plaintext).encode()).digest() is not None and "applicationPrimaryAccountNumber" in plaintext

    def sigil():
        output = subprocess.run([bench, "--applepay-rate", directory, str(at), str(SECONDS)], stdout=subprocess.PIPE, check=True)
        return json.loads(output.stdout)

    rows = {"sigil verify + decrypt": [], "pyca verify + decrypt": [], "sigil decrypt": [], "pyca decrypt": [],
            "sigil verify": [], "pyca verify": []}
    for _ in range(ROUNDS):
        s = sigil()
        rows["sigil verify + decrypt"].append(s["verifyDecrypt"])
        rows["sigil decrypt"].append(s["decrypt"])
        rows["sigil verify"].append(s["verify"])
        rows["pyca verify + decrypt"].append(rate(lambda: (pyca.verify(at), pyca.decrypt())))
        rows["pyca decrypt"].append(rate(pyca.decrypt))
        rows["pyca verify"].append(rate(lambda: pyca.verify(at)))
    model = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), platform.machine())
    import cryptography
    from cryptography.hazmat.backends.openssl.backend import backend
    print("machine: %s, %d cores, Python %s, cryptography %s (%s), load %.2f" % (
        model, os.cpu_count(), platform.python_version(), cryptography.__version__, backend.openssl_version_text(), os.getloadavg()[0]))
    print("| row | tokens/s (median of %d rounds of %.0f s) | Sigil / pyca |" % (ROUNDS, SECONDS))
    print("|---|---|---|")
    medians = {name: statistics.median(values) for name, values in rows.items()}
    for step in ("verify + decrypt", "decrypt", "verify"):
        sigil_rate, pyca_rate = medians["sigil " + step], medians["pyca " + step]
        print("| Sigil, %s | %.0f | **%.2f×** |" % (step, sigil_rate, sigil_rate / pyca_rate))
        print("| pyca/cryptography, %s | %.0f | 1× |" % (step, pyca_rate))


if __name__ == "__main__":
    sys.exit(main())
