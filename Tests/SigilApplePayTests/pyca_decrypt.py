#!/usr/bin/env python3
"""Decrypts an Apple Pay token with pyca/cryptography, independently of Sigil.

    pyca_decrypt.py TOKEN.json MERCHANT_KEY.pem MERCHANT_IDENTIFIER

Prints the plaintext as hex. EC_v1: ECDH (P-256) with the ephemeral public key, the NIST SP 800-56A
concatenation KDF (SHA-256) with other info 0x0D || "id-aes256-GCM" || "Apple" ||
SHA-256(merchant identifier); RSA_v1: RSA-OAEP (SHA-256, MGF1-SHA-256) unwrapping of wrappedKey.
Then AES-256-GCM with a 16-byte zero IV, the tag the last 16 bytes of data. It also checks that
header.publicKeyHash is SHA-256 of the merchant key's SubjectPublicKeyInfo.
"""
import base64
import hashlib
import json
import sys

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, padding
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

token = json.load(open(sys.argv[1]))
key = serialization.load_pem_private_key(open(sys.argv[2], "rb").read(), password=None)
merchant_id_hash = hashlib.sha256(sys.argv[3].encode()).digest()
header = token["header"]

spki = key.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
if base64.b64decode(header["publicKeyHash"]) != hashlib.sha256(spki).digest():
    sys.exit("publicKeyHash does not name this key")

if token["version"] == "EC_v1":
    ephemeral = serialization.load_der_public_key(base64.b64decode(header["ephemeralPublicKey"]))
    z = key.exchange(ec.ECDH(), ephemeral)
    other_info = b"\x0did-aes256-GCM" + b"Apple" + merchant_id_hash
    symmetric = hashlib.sha256(b"\x00\x00\x00\x01" + z + other_info).digest()
elif token["version"] == "RSA_v1":
    symmetric = key.decrypt(
        base64.b64decode(header["wrappedKey"]),
        padding.OAEP(mgf=padding.MGF1(algorithm=hashes.SHA256()), algorithm=hashes.SHA256(), label=None),
    )
else:
    sys.exit("unknown version")

data = base64.b64decode(token["data"])
print(AESGCM(symmetric).decrypt(b"\x00" * 16, data, None).hex())
