#!/usr/bin/env python3
"""What an attacker can make without Apple: App Store signed data under a root of their own, for the
adversarial suites of the C ABI (Tests/CABI/sigil_c_adversarial.c) and the Python package
(python/tests/test_adversarial.py). Minted with python3-cryptography, independent of Sigil, in the
shape of SigilTestPKI's AppleShapedTestPKI (root, WWDR-marked intermediate, receipt-signing-marked
leaf, key identifiers) and XcodeShapedTestCertificate (one self-signed certificate).

    forged.py OUT    writes "name value" lines to OUT: root (base64 DER of the self-made root),
                     jws (a transaction for com.victim.bank, Production, app Apple id 42, signed under
                     it), xcodejws (the same payload signed by a self-made Xcode-shaped certificate
                     the JWS carries)

Nothing here is trusted by anything but a request that names it; nothing reaches the network.
"""
import base64
import datetime
import json
import sys

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature
from cryptography.x509.oid import NameOID

VICTIM_BUNDLE_ID = "com.victim.bank"
VICTIM_APP_APPLE_ID = 42
WWDR_INTERMEDIATE = x509.ObjectIdentifier("1.2.840.113635.100.6.2.1")
RECEIPT_SIGNING = x509.ObjectIdentifier("1.2.840.113635.100.6.11.1")
NULL = b"\x05\x00"


def _name(common_name):
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name), x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Mallory")])


def _certificate(subject, issuer, key, issuer_key, now, ca, path_length=None, marker=None, key_identifiers=True, usage=None):
    builder = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(issuer)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=ca, path_length=path_length), critical=True)
    )
    digital_signature, cert_sign = usage or ((not ca), ca)
    builder = builder.add_extension(
        x509.KeyUsage(
            digital_signature=digital_signature, content_commitment=False, key_encipherment=False, data_encipherment=False,
            key_agreement=False, key_cert_sign=cert_sign, crl_sign=cert_sign, encipher_only=False, decipher_only=False),
        critical=True)
    if key_identifiers:
        builder = builder.add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        if issuer_key is not key:
            builder = builder.add_extension(
                x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer_key.public_key()), critical=False)
    if marker is not None:
        builder = builder.add_extension(x509.UnrecognizedExtension(marker, NULL), critical=False)
    return builder.sign(issuer_key, hashes.SHA384() if issuer_key.curve.key_size == 384 else hashes.SHA256())


def _b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _jws(payload, key, chain, kid=None):
    header = {"alg": "ES256", "x5c": [base64.b64encode(c.public_bytes(serialization.Encoding.DER)).decode("ascii") for c in chain]}
    if kid:
        header["kid"] = kid
    signing_input = _b64url(json.dumps(header, separators=(",", ":")).encode()) + "." + _b64url(payload)
    r, s = decode_dss_signature(key.sign(signing_input.encode("ascii"), ec.ECDSA(hashes.SHA256())))
    return signing_input + "." + _b64url(r.to_bytes(32, "big") + s.to_bytes(32, "big"))


def transaction_payload(bundle_id, environment, now):
    milliseconds = int(now.timestamp()) * 1000
    return json.dumps(
        {
            "transactionId": "666", "originalTransactionId": "666", "bundleId": bundle_id, "productId": "gold",
            "purchaseDate": milliseconds, "type": "Consumable", "inAppOwnershipType": "PURCHASED", "signedDate": milliseconds,
            "environment": environment, "quantity": 1,
        },
        separators=(",", ":")).encode()


def forge(now=None):
    """{"root": base64 DER, "jws": transaction under it, "xcodejws": Xcode-shaped, certificate carried}."""
    now = now or datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    root_key, intermediate_key = ec.generate_private_key(ec.SECP384R1()), ec.generate_private_key(ec.SECP384R1())
    leaf_key, xcode_key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())
    root_name, intermediate_name = _name("Mallory Root CA - G3"), _name("Mallory Worldwide Developer Relations CA")
    root = _certificate(root_name, root_name, root_key, root_key, now, ca=True)
    intermediate = _certificate(intermediate_name, root_name, intermediate_key, root_key, now, ca=True, path_length=0, marker=WWDR_INTERMEDIATE)
    leaf = _certificate(_name("Mallory StoreKit Signing"), intermediate_name, leaf_key, intermediate_key, now, ca=False, marker=RECEIPT_SIGNING)
    xcode_name = _name("StoreKit Testing in Xcode")
    xcode = _certificate(xcode_name, xcode_name, xcode_key, xcode_key, now, ca=True, path_length=0, key_identifiers=False, usage=(True, True))
    return {
        "root": base64.b64encode(root.public_bytes(serialization.Encoding.DER)).decode("ascii"),
        "jws": _jws(transaction_payload(VICTIM_BUNDLE_ID, "Production", now), leaf_key, [leaf, intermediate, root]),
        "xcodejws": _jws(transaction_payload(VICTIM_BUNDLE_ID, "Xcode", now), xcode_key, [xcode], kid="Apple_Xcode_Key"),
    }


def main():
    forged = forge()
    with open(sys.argv[1], "w", encoding="ascii") as out:
        for name in ("root", "jws", "xcodejws"):
            out.write("%s %s\n" % (name, forged[name]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
